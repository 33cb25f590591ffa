/**
 * Roomtone's own overhead per generation around a generative backend: synchronous live 2k
 * renders through the production server configured with ENGINE_RENDER=replicate:…, against the
 * local Replicate-protocol server of the tests (its "model" answers in ~150 ms plus its own
 * image work). Split at the backend's edges, measured on one clock (this process hosts the
 * protocol server):
 *   before = request sent → prediction created (admission, input prep, file uploads);
 *   after  = prediction ended → 200 received (download, checks, [resize, WebP,] storage,
 *            finish transaction with its event, wake-up of the waiting request).
 * Three variants: Replicate with the shipped templates (the model answers the output itself,
 * stored as it is); Replicate with a template asking for JPEG q95 (decoded, resized and
 * re-encoded as WebP by Roomtone); and a masked prompt edit through the local OpenAI images
 * server (letterbox, mask conversion, JPEG answer, crop, resize, composite outside the mask,
 * WebP): the costliest path. Needs port 443 on ::1 (run inside `unshare --net` as the tests do).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { db, transaction } from '@/server/platform/db';
import { createOrganization } from '@/server/capabilities/orgs/orgs';
import { createApiKey } from '@/server/capabilities/keys/keys';
import { resetConfigCache, setEnv } from '@/server/platform/config';
import { startFakeReplicate } from '../../test/backends/replicate-server';
import { startFakeOpenAI } from '../../test/backends/openai-server';
import { makeTestCertificates } from '../../test/tls';
import { BENCH_DATA_DIR, envNumber, fmt, freePort, markdownTable, median, percentile, serverNodeFlags, startRoomtoneServer, treeCpuMs, type BenchContext, type SectionOutput } from '../lib';

const TOKEN = 'r8_bench';

export async function backendSection(ctx: BenchContext): Promise<SectionOutput> {
  const requests = envNumber('BENCH_BACKEND_REQUESTS', 12);
  const database = await ctx.database();
  setEnv('DATABASE_URL', database.url);
  resetConfigCache();
  const certs = await makeTestCertificates('Roomtone Bench CA');
  const caPath = path.join(BENCH_DATA_DIR, 'backend-ca.pem');
  fs.writeFileSync(caPath, certs.caPem);
  const fake = await startFakeReplicate(certs, TOKEN);
  ctx.cleanup.add('local Replicate', () => fake.close());
  const openai = await startFakeOpenAI(certs, TOKEN);
  ctx.cleanup.add('local OpenAI', () => openai.close());
  const org = await transaction((tx) => createOrganization(tx, { name: 'Bench backend', tier: 9, creditCents: 1_000_000 }));
  const key = await createApiKey(db(), { organizationId: org.id, mode: 'live', name: 'bench backend' });
  const photo = await sharp({ create: { width: 2048, height: 1536, channels: 3, background: '#8a7f70', noise: { type: 'gaussian', mean: 128, sigma: 24 } } })
    .blur(0.8)
    .jpeg({ quality: 88 })
    .toBuffer();
  // The shipped templates ask for the output itself (WebP q85 at the size); the second run
  // asks for JPEG q95, as a model that cannot answer WebP would: decoded and re-encoded here.
  const jpegTemplates = path.join(BENCH_DATA_DIR, 'templates-jpeg');
  fs.rmSync(jpegTemplates, { recursive: true, force: true });
  fs.cpSync(path.resolve('engine-templates'), jpegTemplates, { recursive: true });
  const renderTemplate = path.join(jpegTemplates, 'replicate', 'render.json');
  fs.writeFileSync(renderTemplate, JSON.stringify({ ...JSON.parse(fs.readFileSync(renderTemplate, 'utf8')), output_format: 'jpg', output_quality: 95 }, null, 2));
  // A quarter of the frame painted red: the prompt edit's mask.
  const mask = await sharp({ create: { width: 2048, height: 1536, channels: 3, background: '#000000' } })
    .composite([{ input: { create: { width: 1024, height: 768, channels: 3, background: '#FF0000' } }, left: 1024, top: 0 }])
    .png()
    .toBuffer();
  const replicateEnv = { ENGINE_RENDER: 'replicate:roomtone-bench/render', REPLICATE_API_TOKEN: TOKEN, REPLICATE_BASE_URL: `${fake.origin}/v1` };
  const renderForm = () => formOf({ image: photo, quality: '2k' });
  const replicateSpans = (started: number, ended: number) => {
    const p = fake.predictions[0];
    return p?.endedAt ? { before: p.receivedAt - started, backend: p.endedAt - p.receivedAt, after: ended - p.endedAt } : null;
  };
  const variants: Variant[] = [
    { id: 'webpAnswer', name: 'Replicate render; the model answers the output (WebP q85 at the size, shipped templates)', route: '/v1/renders', env: replicateEnv, form: renderForm, spans: replicateSpans },
    { id: 'jpegAnswer', name: 'Replicate render; the model answers JPEG q95 (decoded, re-encoded as WebP)', route: '/v1/renders', env: { ...replicateEnv, ENGINE_TEMPLATE_DIR: jpegTemplates }, form: renderForm, spans: replicateSpans },
    {
      id: 'openaiMaskedEdit',
      name: 'OpenAI masked prompt edit (letterbox into 1536×1024, JPEG answer, crop, resize, composite outside the mask, WebP)',
      route: '/v1/edits',
      env: { ENGINE_EDIT_PROMPT: 'openai:gpt-image-1', OPENAI_API_KEY: TOKEN, OPENAI_BASE_URL: openai.url },
      form: () => formOf({ image: photo, mask, mode: 'prompt', prompt: 'Add a large abstract painting', quality: '2k' }),
      spans: (started, ended) => {
        const e = openai.edits[0];
        return e?.endedAt ? { before: e.receivedAt - started, backend: e.endedAt - e.receivedAt, after: ended - e.endedAt } : null;
      },
    },
  ];
  const failures: string[] = [];
  const markdown = ['### Overhead around a generative backend (2k generations)', ''];
  const raw: Record<string, unknown> = { requests };
  for (const variant of variants) {
    const port = await freePort();
    const server = await startRoomtoneServer({
      port,
      nodeFlags: serverNodeFlags(ctx),
      databaseUrl: database.url,
      env: {
        ...variant.env,
        NODE_EXTRA_CA_CERTS: caPath,
        DEV_ALLOW_LOOPBACK_URLS: 'true',
        WEB_PROCESSES: '1',
      },
    });
    ctx.cleanup.add(`roomtone server (backend, ${variant.name})`, () => server.stop());
    ctx.log(`backend: ${requests} synchronous live 2k generations through a local protocol server; ${variant.name}`);

    const rows: { total: number; before: number; backend: number; after: number }[] = [];
    const send = async () => {
      fake.reset();
      openai.reset();
      const started = performance.now();
      const res = await fetch(`${server.url}${variant.route}`, { method: 'POST', headers: { authorization: `Bearer ${key.secret}` }, body: variant.form() });
      const body = (await res.json()) as { status?: string; output?: Array<{ width: number }> };
      const ended = performance.now();
      const spans = variant.spans(started, ended);
      if (res.status !== 200 || body.status !== 'succeeded' || body.output?.[0]?.width !== 2048 || !spans) {
        failures.push(`${variant.route} answered ${res.status} ${body.status ?? ''}`);
        return null;
      }
      return { total: ended - started, ...spans };
    };
    for (let i = 0; i < 2; i++) await send(); // warm-up
    // CPU of the server's process tree per generation: Roomtone's own work, steadier than wall
    // time on a loaded machine (the protocol server runs in this process, not in that tree).
    const [cpuBefore] = treeCpuMs([server.pid]);
    for (let i = 0; i < requests; i++) {
      const r = await send();
      if (r) rows.push(r);
    }
    const [cpuAfter] = treeCpuMs([server.pid]);
    const cpuPerGeneration = cpuBefore !== null && cpuBefore !== undefined && cpuAfter !== null && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / Math.max(1, rows.length) : null;
    await server.stop();
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const col = (k: keyof (typeof rows)[number]) => rows.map((r) => r[k]);
    const overhead = rows.map((r) => r.before + r.after);
    const table = markdownTable(
      ['Part', 'p50 ms', 'p90 ms', 'max ms'],
      [
        ['request → backend call arrives (client upload, admission, input prep, file upload)', ...stats(col('before'))],
        ['backend (local protocol server: its "model" and its own image work: decode, encode)', ...stats(col('backend'))],
        ['backend answered → 200 (download, checks, [crop, resize, composite, WebP,] store, finish, wake-up)', ...stats(col('after'))],
        ['**Roomtone overhead** (first + third rows)', ...stats(overhead)],
        ['total, as the client saw it', ...stats(col('total'))],
      ],
    );
    markdown.push(
      `**${variant.name}.** ${rows.length} sequential synchronous live generations, 2048×1536 JPEG in, 2048×1536 WebP out, one web process; load average at the end ${load}. Server CPU per generation (its process tree): ${cpuPerGeneration === null ? 'n/a' : `${fmt(cpuPerGeneration, 0)} ms`}.`,
      '',
      table,
      '',
    );
    raw[variant.id] = { rows, load, cpuPerGeneration, overheadP50: median(overhead) };
  }
  return { markdown: markdown.join('\n'), raw, failures: [...new Set(failures)] };
}

function stats(values: number[]): [string, string, string] {
  return [fmt(median(values), 0), fmt(percentile(values, 0.9), 0), fmt(Math.max(...values), 0)];
}

interface Variant {
  id: string;
  name: string;
  route: string;
  env: Record<string, string>;
  form(): FormData;
  /** Where the request's time went, from the protocol server's clock (this process's). */
  spans(started: number, ended: number): { before: number; backend: number; after: number } | null;
}

function formOf(fields: Record<string, string | Buffer>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.set(name, value);
    else form.set(name, new Blob([new Uint8Array(value)], { type: name === 'mask' ? 'image/png' : 'image/jpeg' }), `${name}.${name === 'mask' ? 'png' : 'jpg'}`);
  }
  return form;
}
