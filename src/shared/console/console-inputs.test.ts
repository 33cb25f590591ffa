// @node-lines same: zod form schemas' messages: our rules
import { describe, expect, it } from 'vitest';
import { signInInput, signUpInput } from './console-inputs';

/** Every message a sign-up or sign-in form shows is a sentence (a capital first, a full stop last), in the console's one voice. */
describe('sign-up and sign-in messages speak in sentences', () => {
  it.each([
    ['sign-up', () => signUpInput.safeParse({ email: 'not-an-address', password: 'short', name: 'x'.repeat(101), organizationName: '' })],
    ['sign-in', () => signInInput.safeParse({ email: '', password: '' })],
  ])('%s', (_form, parse) => {
    const result = parse();
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => i.message) ?? [];
    expect(messages.length).toBeGreaterThanOrEqual(2);
    for (const message of messages) expect(message).toMatch(/^[A-Z].*\.$/);
    expect(messages).toContain('Enter an e-mail address such as name@example.com.');
  });
});
