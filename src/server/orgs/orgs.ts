import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { DbTx } from '@/server/platform/db';
import { ApiError } from '@/server/platform/errors';
import { newId } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';
import { grantCredit } from '@/server/billing/ledger';
import { isKnownTier } from '@/server/billing/pricing';
import type { MemberRole } from '@/generated/prisma/enums';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export async function createOrganization(
  tx: DbTx,
  input: { name: string; tier?: number; creditCents?: number },
): Promise<{ id: string; name: string; tier: number; balanceCents: number }> {
  const tier = input.tier ?? 1;
  if (!isKnownTier(tier)) throw new ApiError(400, 'parameter_invalid', `Unknown tier ${tier}.`, { param: 'tier' });
  const org = await tx.organization.create({
    data: { id: newId('org'), name: input.name, tier, createdAt: clock.now() },
  });
  let balanceCents = 0;
  if (input.creditCents && input.creditCents > 0) {
    balanceCents = (await grantCredit(tx, org.id, input.creditCents, 'Initial credit')).balanceAfter;
  }
  return { id: org.id, name: org.name, tier: org.tier, balanceCents };
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64url');
  const actual = await scrypt(password, Buffer.from(saltText, 'base64url'), expected.length);
  return timingSafeEqual(actual, expected);
}

/** Create a console user (or add an existing one) as a member of an organization. */
export async function createUser(
  tx: DbTx,
  input: { email: string; password: string; organizationId: string; role: MemberRole; name?: string },
) {
  const email = input.email.trim().toLowerCase();
  const org = await tx.organization.findUnique({ where: { id: input.organizationId } });
  if (!org) throw new ApiError(404, 'resource_not_found', `No organization ${input.organizationId}.`, { param: 'org' });
  const existing = await tx.user.findUnique({ where: { email } });
  const user =
    existing ??
    (await tx.user.create({
      data: { id: newId('usr'), email, name: input.name ?? null, passwordHash: await hashPassword(input.password), createdAt: clock.now() },
    }));
  await tx.membership.upsert({
    where: { organizationId_userId: { organizationId: org.id, userId: user.id } },
    create: { organizationId: org.id, userId: user.id, role: input.role },
    update: { role: input.role },
  });
  return { id: user.id, email: user.email, organization: org.id, role: input.role };
}
