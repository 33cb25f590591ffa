/** Generations made through the service layer (creation routes come with their own tests). */
import { transaction } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';
import { chargeBalance } from '@/server/capabilities/billing/ledger';
import { blobStore } from '@/server/capabilities/storage/storage';
import type { GenerationStatus, GenerationType, Mode } from '@/generated/prisma/enums';

export interface FixtureOptions {
  organizationId: string;
  mode: Mode;
  type?: GenerationType;
  status?: GenerationStatus;
  started?: boolean;
  costAmount?: number;
  metadata?: Record<string, string>;
  withOutput?: boolean;
  createdAt?: Date;
}

export async function insertGeneration(options: FixtureOptions) {
  const id = newId('gen');
  const type = options.type ?? 'upscale';
  const status = options.status ?? 'in_progress';
  const now = options.createdAt ?? clock.now();
  const ended = status !== 'in_progress';
  const outputs: { key: string; contentType: string; width: number; height: number }[] = [];
  if (options.withOutput) {
    // sharp loads only for the files that want an output image (a tenth of a CPU-second a process).
    const { default: sharp } = await import('sharp');
    const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#8a7f70' } }).webp().toBuffer();
    const key = `outputs/${id}/0.webp`;
    await blobStore().put(key, bytes, 'image/webp');
    outputs.push({ key, contentType: 'image/webp', width: 64, height: 48 });
  }
  const costAmount = options.costAmount ?? 10;
  return transaction(async (tx) => {
    const row = await tx.generation.create({
      data: {
        id,
        organizationId: options.organizationId,
        mode: options.mode,
        type,
        status,
        channel: 'v1',
        input: type === 'upscale' ? { quality: null, scale: 'x2' } : { quality: '1k', scale: null },
        metadata: options.metadata ?? {},
        outputs,
        costAmount,
        amountRefunded: status === 'failed' || status === 'canceled' ? costAmount : 0,
        errorCode: status === 'failed' ? 'generation_failed' : null,
        errorMessage: status === 'failed' ? 'The generation failed.' : null,
        createdAt: now,
        startedAt: options.started || ended ? now : null,
        completedAt: ended ? now : null,
        expiresAt: ended ? new Date(now.getTime() + 24 * 3600 * 1000) : null,
      },
    });
    if (options.mode === 'live' && costAmount > 0) await chargeBalance(tx, options.organizationId, costAmount, id, `Charge for ${id}`);
    return row;
  });
}
