import { transaction } from '@/server/platform/db';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { DomainError } from '@/server/platform/errors';
import { memberActor, type Member } from '@/server/capabilities/access/roles';
import { announceKeySecrets, newSecret } from './keys';
import { lockManagedKey } from './member-keys';

/**
 * Rolling a key, as Stripe does: a new secret for the same key, while the old secret keeps
 * working for the overlap the member chose (0: it stops at once), so a deployment can switch
 * without an outage. The key keeps its row (id, name, permissions, fences, mode, expiry, history
 * in the request log and its spend cap's month): the row holds the hash of the new secret and,
 * until the overlap ends, the hash of the one it replaced. A key answers to two secrets at most:
 * rolling again while an old secret is still in its overlap stops that older one at once.
 * The new secret is in this answer only. Audited as `api_key.rolled`.
 */
export interface RolledKey {
  id: string;
  name: string;
  mode: 'test' | 'live';
  prefix: string;
  secret: string;
  /** The secret replaced: its prefix, and until when it works (null: it stopped at once). */
  previous_prefix: string;
  previous_secret_expires_at: number | null;
}

export async function rollMemberKey(member: Member, keyId: string, overlapSeconds: number): Promise<RolledKey> {
  return transaction(async (tx) => {
    const key = await lockManagedKey(tx, member, keyId, 'roll');
    const now = clock.now();
    if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) {
      throw new DomainError('parameter_invalid', 'This key has expired: change its expiry first, then roll it.', { param: 'keyId' });
    }
    const fresh = newSecret(key.mode);
    const keepOld = overlapSeconds > 0;
    const previousSecretExpiresAt = keepOld ? new Date(now.getTime() + overlapSeconds * 1000) : null;
    await tx.apiKey.update({
      where: { id: key.id },
      data: {
        secretHash: fresh.secretHash,
        prefix: fresh.prefix,
        previousSecretHash: keepOld ? key.secretHash : null,
        previousPrefix: keepOld ? key.prefix : null,
        previousSecretExpiresAt,
        rolledAt: now,
      },
    });
    // Both old hashes: the replaced secret now has an end, and an older one still in its overlap has none left.
    await announceKeySecrets(tx, key);
    const droppedEarly = key.previousSecretHash !== null && key.previousSecretExpiresAt !== null && key.previousSecretExpiresAt.getTime() > now.getTime();
    await recordAudit(tx, memberActor(member), member.organizationId, {
      action: 'api_key.rolled',
      mode: key.mode,
      target: { type: 'api_key', id: key.id },
      details: {
        name: key.name,
        prefix: fresh.prefix,
        previous_prefix: key.prefix,
        overlap_seconds: overlapSeconds,
        previous_secret_expires_at: toUnixSeconds(previousSecretExpiresAt ?? now),
        ...(droppedEarly ? { stopped_early_prefix: key.previousPrefix } : {}),
      },
    });
    return {
      id: key.id,
      name: key.name,
      mode: key.mode,
      prefix: fresh.prefix,
      secret: fresh.secret,
      previous_prefix: key.prefix,
      previous_secret_expires_at: toUnixSeconds(previousSecretExpiresAt),
    };
  });
}
