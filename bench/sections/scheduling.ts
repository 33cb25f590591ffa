/**
 * Scheduling under one organization's flood: organization A submits N heavy
 * generations (mask-mode remove: PatchMatch, real CPU work, held to BENCH_SCHED_HEAVY_MS like a slow
 * model), then organization B submits cheap
 * ones (recolour) in two waves, right after the flood and once half of it has run. Run once with
 * JOB_SCHEDULING=fifo (one queue, oldest first, no cost classes) and once with the
 * default fair scheduling, each on a fresh production server. Figures come from the
 * generations' own timestamps: B's queue wait (created → started) and the throughput of the
 * whole run (generations per minute from the first acceptance to the last completion).
 */
import fs from 'node:fs';
import sharp from 'sharp';
import { db, transaction } from '@/server/platform/db';
import { createOrganization } from '@/server/capabilities/orgs/orgs';
import { createApiKey } from '@/server/capabilities/keys/keys';
import { resetConfigCache, setEnv } from '@/server/platform/config';
import { envNumber, fmt, freePort, markdownTable, median, percentile, sleep, startRoomtoneServer, type BenchContext, type SectionOutput } from '../lib';

type Mode = 'fifo' | 'fair';

interface RunFigures {
  mode: Mode;
  heavy: number;
  cheap: number;
  cheapWaitMs: number[];
  /** started → completed of B's generations (their own run time, not queueing). */
  cheapRunMs: number[];
  heavyWaitMs: number[];
  spanMs: number;
  perMinute: number;
  failed: number;
  /** /proc/loadavg (1, 5, 15 min) when the run ended: the machine is shared. */
  load: string;
}

/** A mask with one red (#FF0000) rectangle on transparent black, as a client paints it. */
async function redRectangleMask(width: number, height: number, rect: { x: number; y: number; w: number; h: number }): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 4);
  for (let y = rect.y; y < rect.y + rect.h; y++) {
    for (let x = rect.x; x < rect.x + rect.w; x++) raw.set([255, 0, 0, 255], (y * width + x) * 4);
  }
  return sharp(raw, { raw: { width, height, channels: 4 } }).png().toBuffer();
}

async function organization(name: string): Promise<string> {
  const org = await transaction((tx) => createOrganization(tx, { name, tier: 9 }));
  return (await createApiKey(db(), { organizationId: org.id, mode: 'test', name })).secret;
}

interface Workload {
  heavyCount: number;
  cheapPerWave: number;
  /** Floor on a heavy generation's duration (a slow model), ms. */
  heavyMs: number;
  image: Buffer;
  mask: Buffer;
}

async function runOnce(ctx: BenchContext, databaseUrl: string, mode: Mode, workload: Workload): Promise<RunFigures> {
  const { heavyCount, cheapPerWave, heavyMs } = workload;
  const keyA = await organization(`Bench flood (${mode})`);
  const keyB = await organization(`Bench second (${mode})`);
  const port = await freePort();
  const server = await startRoomtoneServer({ port, databaseUrl, env: { JOB_SCHEDULING: mode, UPSCALE_METHOD: 'lanczos3', BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS: String(heavyMs) }, timeoutMs: 600_000 });
  ctx.cleanup.add(`roomtone server (scheduling ${mode})`, () => server.stop());
  const failures: string[] = [];
  const submit = async (key: string, action: 'remove' | 'modify'): Promise<string> => {
    const layer = action === 'remove' ? { mask_color: '#FF0000', action } : { mask_color: '#FF0000', action, color: '#6B8E7F' };
    const body = new FormData();
    body.set('image', new Blob([new Uint8Array(workload.image)]), 'room.png');
    body.set('mask', new Blob([new Uint8Array(workload.mask)]), 'mask.png');
    body.set('mode', 'mask');
    body.set('quality', '1k');
    body.set('layers', JSON.stringify([layer]));
    body.set('background', 'true');
    const res = await fetch(`${server.url}/v1/edits`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body });
    const json = (await res.json()) as { id?: string };
    if (res.status !== 202 || !json.id) throw new Error(`edit answered ${res.status}: ${JSON.stringify(json)}`);
    return json.id;
  };
  try {
    const heavyIds: string[] = [];
    for (let i = 0; i < heavyCount; i++) heavyIds.push(await submit(keyA, 'remove'));
    const cheapIds: string[] = [];
    for (let i = 0; i < cheapPerWave; i++) cheapIds.push(await submit(keyB, 'modify'));
    // Second wave once half of the flood has ended.
    for (;;) {
      const done = await db().generation.count({ where: { id: { in: heavyIds }, status: { not: 'in_progress' } } });
      if (done >= heavyCount / 2) break;
      await sleep(250);
    }
    for (let i = 0; i < cheapPerWave; i++) cheapIds.push(await submit(keyB, 'modify'));
    const all = [...heavyIds, ...cheapIds];
    const deadline = Date.now() + 30 * 60_000;
    for (;;) {
      const open = await db().generation.count({ where: { id: { in: all }, status: 'in_progress' } });
      if (open === 0) break;
      if (Date.now() > deadline) throw new Error(`scheduling ${mode}: ${open} generations still in progress after 30 min`);
      await sleep(500);
    }
    const rows = await db().generation.findMany({ where: { id: { in: all } }, select: { id: true, status: true, createdAt: true, startedAt: true, completedAt: true } });
    const wait = (ids: string[]) => rows.filter((r) => ids.includes(r.id) && r.startedAt).map((r) => r.startedAt!.getTime() - r.createdAt.getTime());
    const run = (ids: string[]) => rows.filter((r) => ids.includes(r.id) && r.startedAt && r.completedAt).map((r) => r.completedAt!.getTime() - r.startedAt!.getTime());
    const first = Math.min(...rows.map((r) => r.createdAt.getTime()));
    const last = Math.max(...rows.map((r) => r.completedAt?.getTime() ?? 0));
    const failed = rows.filter((r) => r.status !== 'succeeded').length;
    if (failed > 0) failures.push(`scheduling ${mode}: ${failed} generations did not succeed`);
    const spanMs = last - first;
    ctx.log(`scheduling ${mode}: ${all.length} generations in ${fmt(spanMs / 1000, 1)} s`);
    return { mode, heavy: heavyCount, cheap: cheapIds.length, cheapWaitMs: wait(cheapIds), cheapRunMs: run(cheapIds), heavyWaitMs: wait(heavyIds), spanMs, perMinute: (all.length * 60_000) / spanMs, failed, load: fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') };
  } finally {
    await server.stop();
    if (failures.length > 0) throw new Error(failures.join('; '));
  }
}

export async function schedulingSection(ctx: BenchContext): Promise<SectionOutput> {
  const heavyCount = envNumber('BENCH_SCHED_HEAVY', 40);
  const cheapPerWave = envNumber('BENCH_SCHED_CHEAP', 5);
  const heavyMs = envNumber('BENCH_SCHED_HEAVY_MS', 3000);
  const database = await ctx.database();
  setEnv('DATABASE_URL', database.url);
  resetConfigCache();
  const image = await sharp({ create: { width: 1024, height: 768, channels: 3, background: '#8a7f70', noise: { type: 'gaussian', mean: 128, sigma: 24 } } }).blur(1.2).png().toBuffer();
  const mask = await redRectangleMask(1024, 768, { x: 460, y: 340, w: 100, h: 75 });
  const runs: RunFigures[] = [];
  for (const mode of ['fifo', 'fair'] as const) runs.push(await runOnce(ctx, database.url, mode, { heavyCount, cheapPerWave, heavyMs, image, mask }));
  const [fifo, fair] = runs as [RunFigures, RunFigures];
  const rows = runs.map((r) => [
    r.mode === 'fair' ? 'fair (default)' : 'fifo (before)',
    fmt(percentile(r.cheapWaitMs, 0.5) / 1000, 1),
    fmt(percentile(r.cheapWaitMs, 0.95) / 1000, 1),
    fmt(Math.max(...r.cheapWaitMs) / 1000, 1),
    fmt(median(r.cheapRunMs) / 1000, 1),
    fmt(median(r.heavyWaitMs) / 1000, 1),
    fmt(r.spanMs / 1000, 1),
    fmt(r.perMinute, 1),
    r.load,
  ]);
  const ratio = fair.perMinute / fifo.perMinute;
  const goals = markdownTable(
    ['Goal', 'Measured', 'Result'],
    [
      ['B’s queue wait p95 ≤ 5 s under A’s flood (fair)', `${fmt(percentile(fair.cheapWaitMs, 0.95) / 1000, 1)} s (FIFO: ${fmt(percentile(fifo.cheapWaitMs, 0.95) / 1000, 1)} s)`, percentile(fair.cheapWaitMs, 0.95) <= 5_000 ? 'PASS' : 'FAIL'],
      ['total throughput within 10 % of FIFO', `${fmt(ratio, 2)}×`, ratio >= 0.9 ? 'PASS' : 'FAIL'],
    ],
  );
  return {
    markdown: [
      '### Scheduling under one organization’s flood',
      '',
      `Organization A submits ${heavyCount} heavy generations (mask-mode remove of a 100×75 area of 1024×768: PatchMatch on the CPU, held to at least ${fmt(heavyMs / 1000, 1)} s each by BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS, as a slow model would be), then organization B submits ${cheapPerWave} cheap ones (recolour) at once and ${cheapPerWave} more when half of A’s have ended. One production server each (2 web processes, workers in the primary: WORKER_CONCURRENCY=2, WORKER_LIGHT_CONCURRENCY=2); FIFO is one queue on the 2 slots, without cost classes. Waits are started − created; throughput counts every generation from the first acceptance to the last completion.`,
      '',
      markdownTable(['Scheduling', 'B wait p50 s', 'B wait p95 s', 'B wait max s', 'B run median s', 'A wait median s', 'run s', 'generations/min', 'load average at the end'], rows),
      '',
      goals,
    ].join('\n'),
    raw: { runs },
    failures: [],
  };
}
