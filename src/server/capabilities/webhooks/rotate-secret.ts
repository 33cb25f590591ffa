import type { Db } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { OPERATOR, type AuditActor } from '@/server/capabilities/audit/actor';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { decryptSecret, encryptSecret, newSigningSecret } from './signing-secret';
import { findEndpoint, ROTATION_OVERLAP_MS, toApiEndpoint, type ApiWebhookEndpoint, type EndpointScope } from './endpoints';

/**
 * A new secret, shown once. For 24 hours deliveries carry both signatures; the secret being
 * replaced becomes the previous one, so a second rotation within those 24 hours drops the
 * first secret at once.
 */
export async function rotateSecret(client: Db, scope: EndpointScope, id: string, actor: AuditActor = OPERATOR): Promise<{ endpoint: ApiWebhookEndpoint; secret: string }> {
  const secret = newSigningSecret();
  const row = await client.$transaction(async (tx) => {
    await tx.$queryRaw`select id from "WebhookEndpoint" where id = ${id} for update`;
    const endpoint = await findEndpoint(tx, scope, id);
    const current = decryptSecret(id, endpoint.secretEncrypted);
    const rotated = await tx.webhookEndpoint.update({
      where: { id },
      data: {
        secretEncrypted: encryptSecret(id, secret),
        previousSecretEncrypted: encryptSecret(id, current),
        previousSecretExpiresAt: new Date(clock.nowMs() + ROTATION_OVERLAP_MS),
      },
    });
    await recordAudit(tx, actor, endpoint.organizationId, {
      action: 'webhook_endpoint.secret_rotated',
      mode: endpoint.mode,
      target: { type: 'webhook_endpoint', id },
      details: { url: endpoint.url, previous_secret_expires_at: rotated.previousSecretExpiresAt?.toISOString() ?? null },
    });
    return rotated;
  });
  return { endpoint: toApiEndpoint(row), secret };
}
