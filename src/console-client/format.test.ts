// @node-lines same: the console's browser code: it runs in the browser, not on a Node line
import { describe, expect, it } from 'vitest';
import { money, relativeTime } from './format';

describe('money', () => {
  it('never shows a signed zero ("-€0.00 of €500.00" on the overview)', () => {
    expect(money(-0)).toBe('€0.00');
    expect(money(0)).toBe('€0.00');
    expect(money(-1)).toBe('-€0.01');
    expect(money(50_000)).toBe('€500.00');
  });
});

describe('relativeTime', () => {
  const now = Date.UTC(2026, 11, 6, 12, 0, 0);
  it('says moments within a week relative to now, past and future', () => {
    expect(relativeTime(now - 20_000, now)).toBe('20 seconds ago');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3 hours ago');
    expect(relativeTime(now - 86_400_000, now)).toBe('yesterday');
    expect(relativeTime(now + 2 * 3_600_000, now)).toBe('in 2 hours');
    expect(relativeTime(now, now)).toBe('now');
  });
  it('says older moments as a local date and time', () => {
    const old = now - 30 * 86_400_000;
    expect(relativeTime(old, now, 'en-GB')).toBe(new Date(old).toLocaleString('en-GB', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }));
    expect(relativeTime(old, now, 'en-GB')).toMatch(/^6 Nov 2026/);
  });
});
