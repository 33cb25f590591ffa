import type { Generation } from '@/generated/prisma/client';
import { clock } from '@/server/platform/clock';
import { blobStore, LocalBlobStore } from '@/server/capabilities/storage/storage';
import { storedInput, storedOutputs } from './stored-json';

/** The stored shape of one produced image (Generation.outputs). */
export type { StoredOutput } from './stored-json';

/** What a generation read needs: the spec's object plus the scope (never the stored input images). */
export const GENERATION_VIEW_COLUMNS = [
  'id', 'organizationId', 'mode', 'type', 'status', 'input', 'metadata', 'outputs', 'costAmount', 'discountPercent',
  'amountRefunded', 'errorCode', 'errorMessage', 'createdAt', 'startedAt', 'completedAt', 'expiresAt', 'imagesDeletedAt',
  'progress', 'progressStage',
] as const satisfies readonly (keyof Generation)[];
export type GenerationView = Pick<Generation, (typeof GENERATION_VIEW_COLUMNS)[number]>;

/** What the generation object is made of: the columns the /v1 reads select (GenerationView without the scope and the stage). */
export const API_GENERATION_COLUMNS = [
  'id', 'mode', 'type', 'status', 'input', 'metadata', 'outputs', 'costAmount', 'discountPercent', 'amountRefunded',
  'errorCode', 'errorMessage', 'createdAt', 'startedAt', 'completedAt', 'expiresAt', 'imagesDeletedAt', 'progress',
] as const satisfies readonly (typeof GENERATION_VIEW_COLUMNS)[number][];
type ApiGenerationSource = Pick<GenerationView, (typeof API_GENERATION_COLUMNS)[number]>;

type TimestampColumn = 'createdAt' | 'startedAt' | 'completedAt' | 'expiresAt' | 'imagesDeletedAt';
/**
 * The API_GENERATION_COLUMNS of a generation with its timestamps in milliseconds since the
 * epoch: what the /v1 reads select (platform/db.ts's `sql(…, 'epochMs')`), serialized without a
 * Date per timestamp.
 */
export type GenerationViewMs = Omit<ApiGenerationSource, TimestampColumn> & { createdAt: number } & { [K in Exclude<TimestampColumn, 'createdAt'>]: number | null };

export const OUTPUT_URL_TTL_SECONDS = 15 * 60;
export const IMAGE_RETENTION_MS = 24 * 3600 * 1000;

export interface ApiGeneration {
  object: 'generation';
  id: string;
  type: Generation['type'];
  status: Generation['status'];
  /** Fraction done, 0 to 1: while in progress as the engine reports it (null when it cannot tell), 1 once succeeded, null once failed or canceled. */
  progress: number | null;
  cancelable: boolean;
  livemode: boolean;
  created_at: number;
  completed_at: number | null;
  input: Record<string, unknown>;
  output: { url: string; url_expires_at: number; content_type: string; width: number; height: number }[];
  error: { code: string; message: string } | null;
  cost: { amount: number; currency: 'eur'; unit: 'cents'; discount_percent: number; amount_refunded: number };
  metadata: Record<string, string>;
  expires_at: number;
}

/**
 * The generation exactly as the spec's table: every read signs fresh output URLs valid 15
 * minutes. expires_at is end + 24 h; while in progress it is provisional (created_at + 24 h,
 * the earliest the images could be deleted) and becomes final when the generation ends.
 */
export async function toApiGeneration(row: ApiGenerationSource | GenerationViewMs): Promise<ApiGeneration> {
  return (await toApiGenerations([row]))[0] as ApiGeneration;
}

/** A page of generations: every output URL of the page signed in one pass. */
export async function toApiGenerations(rows: readonly (ApiGenerationSource | GenerationViewMs)[]): Promise<ApiGeneration[]> {
  const urlExpiresAt = clock.nowSeconds() + OUTPUT_URL_TTL_SECONDS;
  const outputsOf = rows.map((row) => (row.imagesDeletedAt !== null ? [] : storedOutputs(row.outputs)));
  const store = blobStore();
  const keys: string[] = [];
  for (const outputs of outputsOf) for (const output of outputs) keys.push(output.key);
  // The local store signs synchronously: no promise per URL on the read path.
  const urls = store instanceof LocalBlobStore ? keys.map((key) => store.signUrl(key, urlExpiresAt)) : await Promise.all(keys.map((key) => store.signedUrl(key, urlExpiresAt)));
  let nextUrl = 0;
  return rows.map((row, i) =>
    apiGeneration(
      row,
      (outputsOf[i] ?? []).map((o) => ({
        url: urls[nextUrl++] as string,
        url_expires_at: urlExpiresAt,
        content_type: o.contentType,
        width: o.width,
        height: o.height,
      })),
    ),
  );
}

/** Queued: nothing done yet (0). Running: what the engine last reported, stored throttled. */
function progressOf(row: ApiGenerationSource | GenerationViewMs): number | null {
  switch (row.status) {
    case 'succeeded':
      return 1;
    case 'in_progress':
      return row.startedAt === null ? 0 : (row.progress ?? null);
    default:
      return null;
  }
}

/** Unix seconds of a timestamp as either read gives it. */
function seconds(at: Date | number): number {
  return Math.floor((typeof at === 'number' ? at : at.getTime()) / 1000);
}

function apiGeneration(row: ApiGenerationSource | GenerationViewMs, output: ApiGeneration['output']): ApiGeneration {
  const createdAt = seconds(row.createdAt);
  return {
    object: 'generation',
    id: row.id,
    type: row.type,
    status: row.status,
    progress: progressOf(row),
    cancelable: row.status === 'in_progress' && row.startedAt === null,
    livemode: row.mode === 'live',
    created_at: createdAt,
    completed_at: row.completedAt === null ? null : seconds(row.completedAt),
    input: storedInput(row.input),
    output,
    error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? '' } : null,
    cost: {
      amount: row.costAmount,
      currency: 'eur',
      unit: 'cents',
      discount_percent: row.discountPercent,
      amount_refunded: row.amountRefunded,
    },
    metadata: (row.metadata ?? {}) as Record<string, string>,
    // In seconds, without a Date per row (IMAGE_RETENTION_MS is whole seconds).
    expires_at: row.expiresAt === null ? createdAt + IMAGE_RETENTION_MS / 1000 : seconds(row.expiresAt),
  };
}
