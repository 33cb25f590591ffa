import { describe, expect, it } from 'vitest';
import { safeCallbackPath } from '@/shared/auth/callback-url';
import { HOSTILE_CALLBACKS } from '../../../test/helpers/hostile-callbacks';

const ORIGIN = 'http://localhost:3000';

/** Percent-encoded forms stay encoded in a path: they resolve to a path of our own origin. */
const ENCODED_STAYS_HOME = ['%2F%2Fevil.example', '/%2F%2Fevil.example', '/%5cevil.example', '/%09/evil.example', '\u2215\u2215evil.example'];

describe('safeCallbackPath', () => {
  it('keeps paths of our own origin, with query and fragment', () => {
    expect(safeCallbackPath('/o/org_1/test/logs?x=1#row', ORIGIN)).toBe('/o/org_1/test/logs?x=1#row');
    expect(safeCallbackPath('/invitations/abc123', ORIGIN)).toBe('/invitations/abc123');
    expect(safeCallbackPath(`${ORIGIN}/o/org_1/test/overview`, ORIGIN)).toBe('/o/org_1/test/overview');
  });

  it.each(HOSTILE_CALLBACKS.map((v) => [JSON.stringify(v), v]))('refuses %s', (_label, hostile) => {
    expect(safeCallbackPath(hostile, ORIGIN)).toBe('/');
  });

  it.each(ENCODED_STAYS_HOME.map((v) => [v]))('keeps %s on our origin', (value) => {
    const path = safeCallbackPath(value, ORIGIN);
    expect(path.startsWith('/') && !path.startsWith('//')).toBe(true);
    expect(new URL(path, ORIGIN).origin).toBe(ORIGIN);
  });
});
