/**
 * Bench data through the service layer: one tier-9 organization ("Internal (load tests)", so
 * rate limits never interfere) with a test key, and ~2,000 of its generations inserted in bulk
 * (createMany; the one-by-one test fixture would take minutes). Succeeded generations get a
 * real stored output so every read signs URLs, as in production.
 *
 * process.env (DATABASE_URL, DATA_DIR, APP_SECRET, PUBLIC_BASE_URL) must already match the
 * server's: blobStore() reads DATA_DIR/PUBLIC_BASE_URL once.
 */
import sharp from 'sharp';
import { db, transaction } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { createOrganization } from '@/server/capabilities/orgs/orgs';
import { createApiKey } from '@/server/capabilities/keys/keys';
import { blobStore } from '@/server/capabilities/storage/storage';
import type { Prisma } from '@/generated/prisma/client';
import type { GenerationStatus, GenerationType, Mode } from '@/generated/prisma/enums';

export interface BenchFixtures {
  organizationId: string;
  testKey: string;
  /** Test-mode generation ids of the org (what scenario A rotates over). */
  generationIds: string[];
  /** Ids with a stored output (for response checks). */
  withOutputIds: string[];
  counts: { generations: number; withOutput: number; otherOrg: number };
}

const TYPES: GenerationType[] = ['render', 'edit', 'decoration', 'upscale'];
/** Roughly what a busy org's history looks like: mostly succeeded, some of everything else. */
const STATUSES: GenerationStatus[] = [
  'succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded',
  'failed', 'canceled', 'in_progress', 'in_progress',
];

function row(
  organizationId: string,
  mode: Mode,
  i: number,
  createdAt: Date,
): Prisma.GenerationCreateManyInput & { id: string; status: GenerationStatus } {
  const type = TYPES[i % TYPES.length] as GenerationType;
  const status = STATUSES[(i * 7) % STATUSES.length] as GenerationStatus;
  const ended = status !== 'in_progress';
  const costAmount = type === 'upscale' ? 10 : 30;
  return {
    id: newId('gen'),
    organizationId,
    mode,
    type,
    status,
    channel: 'v1',
    input: type === 'upscale' ? { quality: null, scale: 'x2' } : { quality: '2k', scale: null, style: 'scandinavian' },
    metadata: i % 3 === 0 ? { order_id: `ord_${i}`, room: 'living' } : {},
    outputs: [],
    costAmount,
    amountRefunded: status === 'failed' || status === 'canceled' ? costAmount : 0,
    errorCode: status === 'failed' ? 'generation_failed' : null,
    errorMessage: status === 'failed' ? 'The generation failed.' : null,
    createdAt,
    // Always started: the in-process sweeper re-enqueues unstarted ones after a minute, and
    // the engine would then rewrite them mid-run (fixtures have no input images).
    startedAt: createdAt,
    completedAt: ended ? createdAt : null,
    expiresAt: ended ? new Date(createdAt.getTime() + 24 * 3600 * 1000) : null,
  };
}

/**
 * One INSERT of all rows from a JSON array, in array order (seq follows it), columns not given
 * left to their defaults: Prisma's createMany spent seconds of CPU building the statements of
 * 2,500 rows, while the servers it races are starting.
 */
async function insertGenerations(rows: ReturnType<typeof row>[]): Promise<void> {
  const columns = Object.keys(rows[0] ?? {}).map((c) => `"${c}"`).join(', ');
  await db().$executeRawUnsafe(
    `insert into "Generation" (${columns}) select ${columns} from json_populate_recordset(null::"Generation", $1::json) with ordinality as r order by r.ordinality`,
    JSON.stringify(rows),
  );
}

export async function seedBenchData(options: { generations?: number; otherOrgGenerations?: number } = {}): Promise<BenchFixtures> {
  const total = options.generations ?? 2000;
  const otherTotal = options.otherOrgGenerations ?? 500;
  const client = db();
  const org = await transaction((tx) => createOrganization(tx, { name: 'Bench org', tier: 9, creditCents: 1_000_000 }));
  const key = await createApiKey(client, { organizationId: org.id, mode: 'test', name: 'bench' });
  // Another org's rows in the same table, so the organization/mode scoping is not a no-op.
  const other = await transaction((tx) => createOrganization(tx, { name: 'Bench neighbour', tier: 9 }));

  const webp = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#8a7f70' } }).webp().toBuffer();
  const store = blobStore();
  // Recent (the last ~10 min): nothing expires (retention would strip outputs) and no started
  // generation looks stale (45 min) while the bench runs.
  const spacingMs = 300;
  const start = Date.now() - total * spacingMs;
  const rows: (Prisma.GenerationCreateManyInput & { id: string; status: GenerationStatus })[] = [];
  for (let i = 0; i < total; i++) {
    const r = row(org.id, 'test', i, new Date(start + i * spacingMs));
    if (r.status === 'succeeded') {
      const output = { key: `outputs/${r.id}/0.webp`, contentType: 'image/webp', width: 64, height: 48 };
      r.outputs = [output];
    }
    rows.push(r);
  }
  const withOutput = rows.filter((r) => r.status === 'succeeded');
  // Store the files for real (bounded concurrency): the signed URLs then point at something.
  for (let i = 0; i < withOutput.length; i += 50) {
    await Promise.all(withOutput.slice(i, i + 50).map((r) => store.put(`outputs/${r.id}/0.webp`, webp, 'image/webp')));
  }
  // Ascending createdAt in insertion order: seq (the list's cursor) then matches recency.
  await insertGenerations(rows);
  const otherRows = Array.from({ length: otherTotal }, (_, i) => row(other.id, i % 2 === 0 ? 'test' : 'live', i, new Date(start + i * spacingMs)));
  await insertGenerations(otherRows);
  await client.$executeRawUnsafe('ANALYZE "Generation"');

  return {
    organizationId: org.id,
    testKey: key.secret,
    generationIds: rows.map((r) => r.id),
    withOutputIds: withOutput.map((r) => r.id),
    counts: { generations: rows.length, withOutput: withOutput.length, otherOrg: otherRows.length },
  };
}
