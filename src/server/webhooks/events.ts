import type { DbTx } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';
import type { Generation } from '@/generated/prisma/client';

export type GenerationEventType = 'generation.succeeded' | 'generation.failed' | 'generation.canceled';

/**
 * Record a generation event in the same transaction as the state change that causes it, with
 * one pending delivery per active endpoint of the generation's mode that follows the type.
 * Per the spec, an event no active endpoint follows is not produced at all.
 */
export async function recordGenerationEvent(
  tx: DbTx,
  generation: Pick<Generation, 'id' | 'organizationId' | 'mode'>,
  type: GenerationEventType,
): Promise<string | null> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { organizationId: generation.organizationId, mode: generation.mode, status: 'active', eventTypes: { has: type } },
    select: { id: true },
  });
  if (endpoints.length === 0) return null;
  const eventId = newId('evt');
  const now = clock.now();
  await tx.webhookEvent.create({
    data: {
      id: eventId,
      organizationId: generation.organizationId,
      mode: generation.mode,
      type,
      generationId: generation.id,
      createdAt: now,
      deliveries: {
        create: endpoints.map((e) => ({ id: newId('dlv'), endpointId: e.id, nextAttemptAt: now })),
      },
    },
  });
  return eventId;
}
