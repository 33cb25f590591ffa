import { describe, expect, it } from 'vitest';
import { randomBytes, scryptSync } from 'node:crypto';
import { checkPasswordRule, hashPassword, needsRehash, verifyPassword } from './password';

describe('console passwords', () => {
  it('hashes with argon2id (OWASP baseline parameters) and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it("verifies the CLI's earlier scrypt hashes and marks them for rehashing", async () => {
    const salt = randomBytes(16);
    const stored = `scrypt$${salt.toString('base64url')}$${scryptSync('an old password', salt, 32).toString('base64url')}`;
    expect(await verifyPassword('an old password', stored)).toBe(true);
    expect(await verifyPassword('another password', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });

  it('refuses what is not a hash we wrote, and no hash at all', async () => {
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
    expect(await verifyPassword('x', '$argon2id$garbage')).toBe(false);
  });

  it('applies the length rule with the parameter named', () => {
    expect(() => checkPasswordRule('short')).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'password' }));
    expect(() => checkPasswordRule('x'.repeat(201), 'newPassword')).toThrow(expect.objectContaining({ param: 'newPassword' }));
    expect(() => checkPasswordRule('long enough!')).not.toThrow();
  });
});
