/**
 * Admission latency of a background creation: POST /v1/upscales as multipart with a 2 MB JPEG
 * and background=true, against the real production server — the time until the 202 (parse
 * and stream the upload, check the image, store it, admit in one transaction, enqueue).
 * Sequential requests, so each measures one admission alone; the generations themselves run
 * on the server's workers meanwhile, as in production. The same uploads go, alternating, to a
 * framework-free baseline (bench/admission-baseline-server.ts: the same image checks, a file
 * and a row): Roomtone's p50 over the baseline's is the ratio bench:check holds to
 * ADMISSION_RATIO_FLOOR. Also reported: the CPU the web processes spent per admission (the
 * server's process tree minus the primary, which runs the workers).
 */
import sharp from 'sharp';
import { db, transaction } from '@/server/platform/db';
import { createOrganization } from '@/server/capabilities/orgs/orgs';
import { createApiKey } from '@/server/capabilities/keys/keys';
import { resetConfigCache, setEnv } from '@/server/platform/config';
import path from 'node:path';
import { createRequire } from 'node:module';
import { BENCH_DATA_DIR, ROOT, envNumber, fmt, freePort, markdownTable, median, ownCpuMs, percentile, serverNodeFlags, settled, startChildServer, startRoomtoneServer, treeCpuMs, type BenchContext, type ChildServer, type SectionOutput } from '../lib';

/** Goals: p50 ≤ 100 ms and p99 ≤ 300 ms with the workers busy. */
const P50_GOAL_MS = 100;
const P99_GOAL_MS = 300;
/** bench:check's floor: Roomtone's p50 at most this many times the baseline's (same run). */
export const ADMISSION_RATIO_FLOOR = 3;

/** A photo-like JPEG of about 2 MB (noise keeps the encoder honest). */
async function twoMegabyteJpeg(): Promise<Buffer> {
  const width = 2800;
  const height = 2100;
  const noise = await sharp({ create: { width, height, channels: 3, background: '#8a7f70', noise: { type: 'gaussian', mean: 128, sigma: 28 } } })
    .raw()
    .toBuffer();
  let best = Buffer.alloc(0);
  for (const quality of [70, 75, 80, 85, 90]) {
    best = await sharp(noise, { raw: { width, height, channels: 3 } }).blur(0.6).jpeg({ quality }).toBuffer();
    if (best.length >= 2e6) break;
  }
  return best;
}

export async function admissionSection(ctx: BenchContext): Promise<SectionOutput> {
  const requests = envNumber('BENCH_ADMISSIONS', ctx.check ? 12 : 60);
  const database = await ctx.database();
  setEnv('DATABASE_URL', database.url);
  resetConfigCache();
  const org = await transaction((tx) => createOrganization(tx, { name: 'Bench admissions', tier: 9 }));
  const key = await createApiKey(db(), { organizationId: org.id, mode: 'test', name: 'bench admissions' });
  const port = await freePort();
  const require = createRequire(import.meta.url);
  const baselinePort = await freePort();
  // The http section's server when it ran just before (same database, Lanczos, its cleanup
  // registered there); otherwise one of our own. Both servers start, and the upload is made, at once.
  const handedOver = ctx.handedOver;
  ctx.handedOver = null;
  const [started, baselineStarted, jpeg] = await Promise.allSettled([
    // Lanczos keeps the background work predictable while admissions are measured.
    handedOver ? Promise.resolve(handedOver) : startRoomtoneServer({ port, databaseUrl: database.url, env: { UPSCALE_METHOD: 'lanczos3' }, nodeFlags: serverNodeFlags(ctx) }),
    startChildServer({
      name: 'admission baseline',
      args: [require.resolve('tsx/cli'), path.join(ROOT, 'bench/admission-baseline-server.ts')],
      port: baselinePort,
      env: { PORT: String(baselinePort), DATABASE_URL: database.url, DATA_DIR: BENCH_DATA_DIR, NODE_ENV: 'production' },
    }),
    twoMegabyteJpeg(),
  ]);
  if (started.status === 'fulfilled' && !handedOver) ctx.cleanup.add('roomtone server (admission)', () => started.value.stop());
  if (baselineStarted.status === 'fulfilled') ctx.cleanup.add('admission baseline', () => baselineStarted.value.stop());
  for (const result of [started, baselineStarted, jpeg]) if (result.status === 'rejected') throw result.reason;
  const server = (started as PromiseFulfilledResult<ChildServer>).value;
  const baseline = (baselineStarted as PromiseFulfilledResult<ChildServer>).value;
  const upload = (jpeg as PromiseFulfilledResult<Buffer>).value;
  ctx.log(`admission: roomtone idle after ${fmt((await settled(server.pid)) / 1000, 1)} s`);
  ctx.log(`admission: ${requests} background upscales, multipart ${fmt(upload.length / 1e6, 2)} MB JPEG, alternating with the baseline`);

  const failures: string[] = [];
  const send = async (target: ChildServer): Promise<number> => {
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(upload)], { type: 'image/jpeg' }), 'room.jpg');
    form.set('scale', 'x2');
    form.set('background', 'true');
    const started = performance.now();
    const res = await fetch(`${target.url}/v1/upscales`, { method: 'POST', headers: { authorization: `Bearer ${key.secret}` }, body: form });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    if (res.status !== 202) failures.push(`${target.name} answered ${res.status}`);
    return ms;
  };
  for (let i = 0; i < (ctx.check ? 3 : 5); i++) {
    await send(server); // warm-up
    await send(baseline);
  }
  const times: number[] = [];
  const baselineTimes: number[] = [];
  let webCpuMs = 0;
  for (let i = 0; i < requests; i++) {
    // The web processes' CPU: the tree's minus the primary's own (it runs the job workers).
    const [tree0] = treeCpuMs([server.pid]);
    const own0 = ownCpuMs(server.pid);
    times.push(await send(server));
    const [tree1] = treeCpuMs([server.pid]);
    const own1 = ownCpuMs(server.pid);
    if (tree0 != null && tree1 != null && own0 != null && own1 != null) webCpuMs += tree1 - tree0 - (own1 - own0);
    baselineTimes.push(await send(baseline));
  }
  // Stop now: its workers would otherwise keep upscaling the queued images during later sections.
  await server.stop();
  await baseline.stop();
  const p50 = median(times);
  const p99 = percentile(times, 0.99);
  const baselineP50 = median(baselineTimes);
  const ratio = p50 / baselineP50;
  if (ctx.check && ratio > ADMISSION_RATIO_FLOOR) {
    failures.push(`admission p50 ${fmt(p50, 1)} ms is ${fmt(ratio, 2)}× the baseline's ${fmt(baselineP50, 1)} ms, over the floor of ${ADMISSION_RATIO_FLOOR}×`);
  }
  const verdict = (ok: boolean) => (ok ? 'PASS' : '**MISS**');
  const table = markdownTable(
    ['Request', 'Target', 'n', 'p50 ms', 'p99 ms', 'max ms', 'web CPU ms/admission'],
    [
      [`POST /v1/upscales, multipart ${fmt(upload.length / 1e6, 1)} MB JPEG, background`, 'roomtone', String(requests), fmt(p50, 1), fmt(p99, 1), fmt(Math.max(...times), 1), fmt(webCpuMs / requests, 1)],
      ['', 'baseline', String(requests), fmt(baselineP50, 1), fmt(percentile(baselineTimes, 0.99), 1), fmt(Math.max(...baselineTimes), 1), ''],
    ],
  );
  const goals = markdownTable(
    ['Goal', 'Measured', 'Result'],
    [
      [`p50 ≤ ${P50_GOAL_MS} ms, p99 ≤ ${P99_GOAL_MS} ms, workers busy`, `${fmt(p50, 1)} / ${fmt(p99, 1)} ms`, verdict(p50 <= P50_GOAL_MS && p99 <= P99_GOAL_MS)],
      [`p50 ≤ ${ADMISSION_RATIO_FLOOR} × the baseline's (bench:check floor)`, `${fmt(ratio, 2)}×`, verdict(ratio <= ADMISSION_RATIO_FLOOR)],
    ],
  );
  return {
    markdown: [
      '### Admission latency (202 of a background creation)',
      '',
      "Sequential requests to the production server, alternating with the framework-free baseline (bench/admission-baseline-server.ts: the key, the multipart body, the same image checks, a file and a row); time from sending the request to the 202 (upload, image checks, storage, admission transaction, enqueue), while the server's workers upscale the earlier ones.",
      '',
      table,
      '',
      goals,
    ].join('\n'),
    raw: { requests, bytes: upload.length, timesMs: times, baselineTimesMs: baselineTimes, ratio, webCpuMsPerAdmission: webCpuMs / requests },
    failures: [...new Set(failures)],
    glance: [[`Admission of a ${fmt(upload.length / 1e6, 1)} MB multipart background upscale, workers busy: p50 / p99`, `${fmt(p50)} / ${fmt(p99)} ms`, `≤ ${P50_GOAL_MS} / ${P99_GOAL_MS} ms`]],
  };
}
