/**
 * Soak: SOAK_MINUTES (default 10) of mixed traffic on one production server
 * (`npm start`'s command, default web processes, its job workers) at about half of its measured
 * read capacity, to show that a long run stays flat. Run it in a private network namespace
 * (the webhook receiver takes 127.0.0.1:443):
 *   unshare --net sh -c 'ip link set lo up && npm run bench -- --only soak'
 *
 * 1. Capacity: a closed-loop autocannon run (BENCH_DURATION s, BENCH_CONNECTIONS) over the read
 *    mix below while the background creations run at their soak rate; it also warms up.
 * 2. Soak: the read mix paced evenly at SOAK_LOAD_SHARE (default 0.5) of that capacity, open
 *    loop (each latency counted from the request's due time), plus SOAK_CREATIONS_PER_MINUTE
 *    (default 30) background creations rotating over render, decoration, edit and upscale (test
 *    mode, 640×480 JPEG), each generation.succeeded event delivered to an HTTPS receiver.
 *    Read mix: GET /v1/generations/{id} over 200 ids, GET /v1/generations?limit=20, and the
 *    console's tRPC reads (overview.get, generations.list, billing.transactions) with a session.
 * 3. Every 10 s the RSS of each process of the server (the primary and its children) and of
 *    PostgreSQL (all its processes, shared memory counted in each: a trend, not a size); each
 *    minute is printed as it ends: reads, p50, p99, errors, creations, RSS (the table at the
 *    end adds the deliveries, and counts the reads still in flight at that print).
 *
 * Goal (a miss fails the run, exit 1): RSS of each server process at the end at most 10 % above
 * its level after the first (warm-up) minute (medians of each minute's samples); the p99 of
 * every minute at most 1.5× the first minute's; no error: every read 2xx, every creation
 * accepted (202, or 200 when its run ended before the answer was composed) and succeeded,
 * every delivery succeeded, no server process replaced.
 * The run is also invalid when the server did not keep up: the first minute's p99 over twice
 * the capacity run's (closed loop at full load), as on a busy machine.
 */
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import sharp from 'sharp';
import { ensureProductionBuild } from '@/server/platform/build';
import { db, sql, transaction } from '@/server/platform/db';
import { resetConfigCache, setEnv } from '@/server/platform/config';
import { createUser } from '@/server/capabilities/orgs/orgs';
import { createEndpoint } from '@/server/capabilities/webhooks/create-endpoint';
import { makeTestCertificates } from '../../test/tls';
import { seedBenchData } from '../fixtures';
import {
  BENCH_APP_SECRET,
  BENCH_DATA_DIR,
  ROOT,
  envNumber,
  fmt,
  freePort,
  markdownTable,
  median,
  percentile,
  runAutocannon,
  sectionDatabase,
  sleep,
  startRoomtoneServer,
  type BenchContext,
  type SectionOutput,
} from '../lib';

const RSS_GROWTH_GOAL = 0.1;
const P99_GROWTH_GOAL = 1.5;
const KEEP_UP_FACTOR = 2;
const SAMPLE_EVERY_MS = 10_000;
const MINUTE_MS = 60_000;
const PASSWORD = 'soak-password-0123456789';

interface Minute {
  reads: number;
  latencies: number[];
  readErrors: number;
  creations: number;
  creationErrors: number;
  deliveries: number;
  /** pid → RSS samples (bytes). */
  rss: Map<number, number[]>;
  postgresRss: number[];
}

const newMinute = (): Minute => ({ reads: 0, latencies: [], readErrors: 0, creations: 0, creationErrors: 0, deliveries: 0, rss: new Map(), postgresRss: [] });

/** pid → parent pid of every process (Linux /proc). */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      out.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited while we looked
    }
  }
  return out;
}

function tree(root: number, ppids: Map<number, number>): number[] {
  const found = [root];
  for (let i = 0; i < found.length; i++) for (const [pid, ppid] of ppids) if (ppid === found[i]) found.push(pid);
  return found;
}

function rssBytes(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

function label(pid: number, root: number): string {
  if (pid === root) return `primary ${pid}`;
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return `${path.basename(cmd.find((a) => /\.(ts|js|mjs)$/.test(a)) ?? cmd[0] ?? 'process')} ${pid}`;
  } catch {
    return `process ${pid}`;
  }
}

function postmasterPid(): number | null {
  try {
    const record = JSON.parse(fs.readFileSync(path.join(BENCH_DATA_DIR, 'postgres.json'), 'utf8')) as { clusterDir?: string };
    const pid = Number(fs.readFileSync(path.join(record.clusterDir ?? '', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

const mb = (bytes: number) => fmt(bytes / 2 ** 20, 0);

/** Sign in as the console does (CSRF token, then the credentials callback): the session cookie. */
async function consoleSession(base: string, email: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies, origin: base },
    body: new URLSearchParams({ csrfToken, email, password: PASSWORD, callbackUrl: `${base}/` }),
  });
  const token = res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('authjs.session-token='));
  if (!token) throw new Error(`console sign-in failed (${res.status} ${res.headers.get('location') ?? ''})`);
  return token;
}

export async function soakSection(ctx: BenchContext): Promise<SectionOutput> {
  const minutes = envNumber('SOAK_MINUTES', 10);
  const share = envNumber('SOAK_LOAD_SHARE', 0.5);
  const creationsPerMinute = envNumber('SOAK_CREATIONS_PER_MINUTE', 30);
  const databaseUrl = await sectionDatabase(ctx, 'soak');
  ensureProductionBuild(ROOT);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  Object.assign(process.env, { DATA_DIR: BENCH_DATA_DIR, APP_SECRET: BENCH_APP_SECRET, PUBLIC_BASE_URL: base, DEV_ALLOW_LOOPBACK_URLS: 'true' });
  setEnv('DATABASE_URL', databaseUrl);
  resetConfigCache();

  const certs = await makeTestCertificates('Roomtone Bench CA');
  const caPath = path.join(BENCH_DATA_DIR, 'soak-ca.pem');
  fs.writeFileSync(caPath, certs.caPem);
  const arrivals: number[] = [];
  const receiver = https.createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(performance.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    receiver.once('error', reject);
    receiver.listen(443, '127.0.0.1', () => resolve());
  });
  ctx.cleanup.add('soak webhook receiver', async () => {
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(() => r(undefined)));
  });

  const fixtures = await seedBenchData();
  const email = 'soak@bench.example';
  await transaction((tx) => createUser(tx, { email, password: PASSWORD, organizationId: fixtures.organizationId, role: 'owner' }));
  const { endpoint } = await createEndpoint(db(), { organizationId: fixtures.organizationId }, { mode: 'test', url: 'https://127.0.0.1/soak', events: ['generation.succeeded'] });

  const server = await startRoomtoneServer({
    port,
    databaseUrl,
    env: { PUBLIC_BASE_URL: base, DEV_ALLOW_LOOPBACK_URLS: 'true', NODE_EXTRA_CA_CERTS: caPath, UPSCALE_METHOD: 'lanczos3' },
  });
  ctx.cleanup.add('roomtone server (soak)', () => server.stop());
  const root = server.pid!;
  const cookie = await consoleSession(base, email);
  ctx.log(`soak: roomtone ${base}, pid ${root}; ${minutes} min`);

  const scope = { organizationId: fixtures.organizationId, mode: 'test' };
  const trpc = (procedure: string, input: unknown) => `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`;
  const v1Paths = [...fixtures.generationIds.slice(0, 200).map((id) => `/v1/generations/${id}`), '/v1/generations?limit=20'];
  const consolePaths = [trpc('overview.get', scope), trpc('generations.list', { ...scope, limit: 20 }), trpc('billing.transactions', { ...scope, limit: 20 })];
  // One read in ten is the console's (a dashboard's share beside an integration's traffic).
  const reads = v1Paths.flatMap((p, i) => (i % 9 === 8 ? [p, consolePaths[i % consolePaths.length]!] : [p]));
  const bearer = { authorization: `Bearer ${fixtures.testKey}` };
  const headersFor = (p: string) => (p.startsWith('/api/') ? { cookie } : bearer);

  const image = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#8a7f70', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg({ quality: 80 }).toBuffer();
  const kinds: [string, Record<string, string>][] = [
    ['/v1/renders', { quality: '1k' }],
    ['/v1/decorations', { quality: '1k', style: 'japandi' }],
    ['/v1/edits', { quality: '1k', mode: 'prompt', prompt: 'Paint the walls sage green' }],
    ['/v1/upscales', { scale: 'x2' }],
  ];

  const buckets = Array.from({ length: minutes }, newMinute);
  let started = 0;
  let end = 0;
  const bucketAt = (t: number) => buckets[Math.max(0, Math.min(minutes - 1, Math.floor((t - started) / MINUTE_MS)))]!;
  const created: string[] = [];
  let answeredEnded = 0;
  const pending = new Set<Promise<void>>();
  const track = (p: Promise<void>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };

  const readLoop = async () => {
    const interval = 1000 / rate;
    for (let i = 0; ; i++) {
      const due = started + i * interval;
      if (due >= end) break;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const p = reads[i % reads.length]!;
      const bucket = bucketAt(due);
      track(
        fetch(`${base}${p}`, { headers: headersFor(p) }).then(
          async (res) => {
            await res.arrayBuffer();
            bucket.reads += 1;
            if (res.ok) bucket.latencies.push(performance.now() - due);
            else bucket.readErrors += 1;
          },
          () => {
            bucket.reads += 1;
            bucket.readErrors += 1;
          },
        ),
      );
    }
  };
  /** Background creations evenly from `from` to `until`, each counted in the minute `bucketOf` its due time. */
  const creationLoop = async (from: number, until: number, bucketOf: (due: number) => Minute) => {
    if (creationsPerMinute <= 0) return;
    const interval = MINUTE_MS / creationsPerMinute;
    for (let i = 0; ; i++) {
      const due = from + i * interval;
      if (due >= until) break;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const [route, fields] = kinds[i % kinds.length]!;
      const form = new FormData();
      form.set('image', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'room.jpg');
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      form.set('background', 'true');
      const bucket = bucketOf(due);
      track(
        fetch(`${base}${route}`, { method: 'POST', headers: bearer, body: form }).then(
          async (res) => {
            const body = (await res.json()) as { id?: string; error?: unknown };
            bucket.creations += 1;
            // 200: the run ended before the answer was read (the row is read after the enqueue).
            if ((res.status === 202 || res.status === 200) && body.id) {
              created.push(body.id);
              if (res.status === 200) answeredEnded += 1;
            }
            else {
              bucket.creationErrors += 1;
              ctx.log(`soak: ${route} answered ${res.status} ${JSON.stringify(body.error ?? body)}`);
            }
          },
          (error: unknown) => {
            bucket.creations += 1;
            bucket.creationErrors += 1;
            ctx.log(`soak: ${route} failed: ${String(error)}`);
          },
        ),
      );
    }
  };
  // 1. Capacity (and warm-up): the read mix closed loop (both credentials on every request)
  // while the background creations run at their soak rate, so that half of it is half of what
  // the server can do beside them.
  const warmup = newMinute();
  const capacityStarted = performance.now();
  const [capacity] = await Promise.all([
    runAutocannon({ url: base, headers: { ...bearer, cookie }, paths: reads, connections: ctx.settings.connections, durationSec: ctx.settings.durationSec }),
    creationLoop(capacityStarted, capacityStarted + ctx.settings.durationSec * 1000, () => warmup),
  ]);
  const failures: string[] = [];
  if (capacity.non2xx > 0 || capacity.errors > 0) failures.push(`capacity run: ${capacity.non2xx} non-2xx, ${capacity.errors} errors (${JSON.stringify(capacity.statusCodes)})`);
  const rate = Math.max(1, capacity.reqPerSec * share);
  ctx.log(`soak: capacity ${fmt(capacity.reqPerSec)} reads/s beside ${creationsPerMinute} creations/min; soak at ${fmt(rate)} reads/s`);

  // 2. The soak.
  started = performance.now();
  end = started + minutes * MINUTE_MS;
  const labels = new Map<number, string>();
  let replaced = false;
  let firstTree: Set<number> | null = null;
  const sampleLoop = async () => {
    let reported = 0;
    for (let t = started; t < end; t += SAMPLE_EVERY_MS) {
      const wait = t - performance.now();
      if (wait > 1) await sleep(wait);
      const ppids = parents();
      const pids = tree(root, ppids);
      firstTree ??= new Set(pids);
      if (pids.some((pid) => !firstTree!.has(pid)) || [...firstTree].some((pid) => !ppids.has(pid))) replaced = true;
      const bucket = bucketAt(t);
      for (const pid of pids) {
        const rss = rssBytes(pid);
        if (rss === null) continue;
        if (!labels.has(pid)) labels.set(pid, label(pid, root));
        bucket.rss.set(pid, [...(bucket.rss.get(pid) ?? []), rss]);
      }
      const postmaster = postmasterPid();
      if (postmaster) bucket.postgresRss.push(tree(postmaster, ppids).reduce((sum, pid) => sum + (rssBytes(pid) ?? 0), 0));
      // Print each minute once it is over (its reads may still be answering: counted at the end).
      const minute = Math.floor((performance.now() - started) / MINUTE_MS);
      while (reported < minute && reported < minutes) printMinute(reported++);
    }
  };
  const printMinute = (i: number) => {
    const m = buckets[i]!;
    const rss = [...m.rss].map(([pid, samples]) => `${labels.get(pid)} ${mb(median(samples))} MB`).join(', ');
    ctx.log(
      `soak: minute ${i + 1}: ${m.reads} reads, p50 ${fmt(percentile(m.latencies, 0.5), 1)} ms, p99 ${fmt(percentile(m.latencies, 0.99), 1)} ms, ${m.readErrors} read errors; ${m.creations} creations (${m.creationErrors} errors); RSS ${rss}; PostgreSQL ${mb(median(m.postgresRss))} MB`,
    );
  };

  await Promise.all([readLoop(), creationLoop(started, end, bucketAt), sampleLoop()]);
  await Promise.all(pending);
  if (!server.alive()) failures.push(`the server exited during the soak:\n${server.output().slice(-2000)}`);
  printMinute(minutes - 1);

  // Every creation ends, succeeded; every delivery of their events succeeds.
  const deadline = performance.now() + 120_000;
  let unfinished = created.length;
  while (performance.now() < deadline) {
    const [row] = await sql<{ open: number }>(`select count(*)::int as open from "Generation" where id = any($1::text[]) and status = 'in_progress'`, [created]);
    const [dlv] = await sql<{ open: number }>(`select count(*)::int as open from "WebhookDelivery" where "endpointId" = $1 and status <> 'succeeded'`, [endpoint.id]);
    unfinished = row!.open + dlv!.open;
    if (unfinished === 0) break;
    await sleep(1000);
  }
  const outcomes = await sql<{ status: string; n: number }>(`select status::text, count(*)::int as n from "Generation" where id = any($1::text[]) group by status`, [created]);
  const deliveries = await sql<{ status: string; n: number }>(`select status::text, count(*)::int as n from "WebhookDelivery" where "endpointId" = $1 group by status`, [endpoint.id]);
  for (const t of arrivals) if (t >= started && t < end) bucketAt(t).deliveries += 1;
  const notSucceeded = outcomes.filter((o) => o.status !== 'succeeded');
  if (notSucceeded.length > 0) failures.push(`generations not succeeded: ${JSON.stringify(notSucceeded)}`);
  const deliveriesNotSucceeded = deliveries.filter((d) => d.status !== 'succeeded');
  if (deliveriesNotSucceeded.length > 0) failures.push(`webhook deliveries not succeeded: ${JSON.stringify(deliveriesNotSucceeded)}`);
  const delivered = deliveries.find((d) => d.status === 'succeeded')?.n ?? 0;
  if (delivered !== created.length) failures.push(`${created.length} generations created, ${delivered} generation.succeeded deliveries`);

  // The goals.
  const readErrors = buckets.reduce((sum, m) => sum + m.readErrors, 0);
  const creationErrors = [warmup, ...buckets].reduce((sum, m) => sum + m.creationErrors, 0);
  if (readErrors > 0) failures.push(`${readErrors} reads answered non-2xx or failed`);
  if (creationErrors > 0) failures.push(`${creationErrors} creations refused or failed`);
  if (replaced) failures.push('a server process was replaced during the soak');
  const firstP99 = percentile(buckets[0]!.latencies, 0.99);
  const worstP99 = Math.max(...buckets.map((m) => percentile(m.latencies, 0.99)));
  // At half the load the paced p99 stays under the closed-loop run's at full load; far above it,
  // the server did not keep up (a busy machine), and the checks would compare overload with overload.
  if (firstP99 > KEEP_UP_FACTOR * capacity.p99) {
    failures.push(`the first minute's p99 (${fmt(firstP99, 1)} ms) is over ${KEEP_UP_FACTOR}× the capacity run's (${fmt(capacity.p99, 1)} ms): the server did not keep up with ${fmt(rate)} reads/s`);
  }
  if (worstP99 > P99_GROWTH_GOAL * firstP99) failures.push(`p99 rose to ${fmt(worstP99, 1)} ms, over ${P99_GROWTH_GOAL}× the first minute's ${fmt(firstP99, 1)} ms`);
  const first = buckets[0]!;
  const last = buckets[minutes - 1]!;
  const growth = [...first.rss.keys()].map((pid) => {
    const before = median(first.rss.get(pid) ?? []);
    const after = median(last.rss.get(pid) ?? []);
    return { process: labels.get(pid) ?? String(pid), before, after, growth: after / before - 1 };
  });
  for (const g of growth) {
    if (!(g.growth <= RSS_GROWTH_GOAL)) failures.push(`RSS of ${g.process} grew ${fmt(g.growth * 100, 1)} % (${mb(g.before)} → ${mb(g.after)} MB), over ${RSS_GROWTH_GOAL * 100} %`);
  }

  const table = markdownTable(
    ['minute', 'reads', 'p50 ms', 'p99 ms', 'creations', 'deliveries', 'errors', ...growth.map((g) => `RSS ${g.process.replace(/ \d+$/, '')} MB`), 'PostgreSQL RSS MB'],
    buckets.map((m, i) => [
      String(i + 1),
      String(m.reads),
      fmt(percentile(m.latencies, 0.5), 1),
      fmt(percentile(m.latencies, 0.99), 1),
      String(m.creations),
      String(m.deliveries),
      String(m.readErrors + m.creationErrors),
      ...[...first.rss.keys()].map((pid) => mb(median(m.rss.get(pid) ?? []))),
      mb(median(m.postgresRss)),
    ]),
  );
  const markdown = [
    `### Soak: ${minutes} min of mixed traffic at ${fmt(share * 100)} % of the read capacity`,
    '',
    `Capacity ${fmt(capacity.reqPerSec)} reads/s (closed loop, ${ctx.settings.connections} connections, ${ctx.settings.durationSec} s, beside the creations); soak at ${fmt(rate)} reads/s (v1 and console tRPC, open loop) and ${creationsPerMinute} background creations/min with their webhook deliveries.`,
    '',
    table,
    '',
    `RSS growth after the first minute: ${growth.map((g) => `${g.process} ${fmt(g.growth * 100, 1)} %`).join(', ')} (goal ≤ ${RSS_GROWTH_GOAL * 100} %); worst p99 ${fmt(worstP99 / Math.max(firstP99, 1e-9), 2)}× the first minute's (goal ≤ ${P99_GROWTH_GOAL}×); ${created.length} generations (${answeredEnded} answered 200: ended before the answer), ${delivered} deliveries; ${readErrors + creationErrors} errors.`,
  ].join('\n');
  return {
    markdown,
    raw: {
      minutes,
      share,
      creationsPerMinute,
      capacity: capacity.reqPerSec,
      rate,
      perMinute: buckets.map((m) => ({ reads: m.reads, p50: percentile(m.latencies, 0.5), p99: percentile(m.latencies, 0.99), readErrors: m.readErrors, creations: m.creations, creationErrors: m.creationErrors, deliveries: m.deliveries, rss: Object.fromEntries([...m.rss].map(([pid, s]) => [labels.get(pid) ?? String(pid), median(s)])), postgresRss: median(m.postgresRss) })),
      growth,
      unfinished,
      answeredEnded,
    },
    failures,
  };
}
