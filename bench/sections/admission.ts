/**
 * Admission latency of a background creation: POST /v1/upscales as multipart with a 2 MB JPEG
 * and background=true, against the real production server — the time until the 202 (parse
 * and stream the upload, check the image, store it, admit in one transaction, enqueue).
 * Sequential requests, so each measures one admission alone; the generations themselves run
 * on the server's workers meanwhile, as in production.
 */
import sharp from 'sharp';
import { db, transaction } from '@/server/platform/db';
import { createOrganization } from '@/server/orgs/orgs';
import { createApiKey } from '@/server/keys/keys';
import { resetConfigCache, setEnv } from '@/server/platform/config';
import { envNumber, fmt, freePort, markdownTable, median, percentile, startRoomtoneServer, type BenchContext, type SectionOutput } from '../lib';

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
  const requests = envNumber('BENCH_ADMISSIONS', 60);
  const database = await ctx.database();
  setEnv('DATABASE_URL', database.url);
  resetConfigCache();
  const org = await transaction((tx) => createOrganization(tx, { name: 'Bench admissions', tier: 9 }));
  const key = await createApiKey(db(), { organizationId: org.id, mode: 'test', name: 'bench admissions' });
  const port = await freePort();
  // Lanczos keeps the background work predictable while admissions are measured.
  const server = await startRoomtoneServer({ port, databaseUrl: database.url, env: { UPSCALE_METHOD: 'lanczos3' } });
  ctx.cleanup.add('roomtone server (admission)', () => server.stop());
  const jpeg = await twoMegabyteJpeg();
  ctx.log(`admission: ${requests} background upscales, multipart ${fmt(jpeg.length / 1e6, 2)} MB JPEG`);

  const failures: string[] = [];
  const send = async (): Promise<number> => {
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'room.jpg');
    form.set('scale', 'x2');
    form.set('background', 'true');
    const started = performance.now();
    const res = await fetch(`${server.url}/v1/upscales`, { method: 'POST', headers: { authorization: `Bearer ${key.secret}` }, body: form });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    if (res.status !== 202) failures.push(`admission answered ${res.status}`);
    return ms;
  };
  for (let i = 0; i < 5; i++) await send(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < requests; i++) times.push(await send());
  // Stop now: its workers would otherwise keep upscaling the queued images during later sections.
  await server.stop();
  const table = markdownTable(
    ['Request', 'n', 'p50 ms', 'p99 ms', 'max ms'],
    [[`POST /v1/upscales, multipart ${fmt(jpeg.length / 1e6, 1)} MB JPEG, background`, String(requests), fmt(median(times), 1), fmt(percentile(times, 0.99), 1), fmt(Math.max(...times), 1)]],
  );
  return {
    markdown: ['### Admission latency (202 of a background creation)', '', 'Sequential requests to the production server; time from sending the request to the 202 (upload, image checks, storage, admission transaction, enqueue), while the workers process the earlier ones.', '', table].join('\n'),
    raw: { requests, bytes: jpeg.length, timesMs: times },
    failures: [...new Set(failures)],
  };
}
