// @node-lines same: the Python client: Python's code, not Node's
// @worker-process shared: python3's unittest waited for to its end against the shared server, fixture and receiver servers it closes after it; the setting it makes is given back (test/file-environment.ts)
/**
 * The Python client (sdk-python/, package `roomtone`) against the real server: its own tests,
 * `python3 -m unittest discover -s tests -v` in sdk-python/, run once by this file. Each Python
 * test is a test here (found by reading the test files, so one that does not run fails here),
 * with its traceback when it fails; a skip, a missing python3 or a non-zero exit fails too.
 *
 * The Python tests reach what only the service layer can set up (an organization and its keys,
 * a generation that stays unstarted, a full quota minute, a webhook endpoint and its deliveries,
 * a secret rotation, an upload's id and URL, the server's own Standard Webhooks signer) through a small HTTP server of
 * this file on loopback: POST /<action> with a JSON body, answered in JSON.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/platform/db';
import { createEndpoint } from '@/server/capabilities/webhooks/create-endpoint';
import { rotateSecret } from '@/server/capabilities/webhooks/rotate-secret';
import { signatureHeader } from '@/server/capabilities/webhooks/sign';
import { createUpload } from '@/server/capabilities/uploads/uploads';
import type { Permission } from '@/shared/keys/permissions';
import { baseUrl, createKey, createTestOrg, holdGenerations, testIp } from './support';
import { insertGeneration } from './fixtures';
import { maskPng, noiseImage, restoreServedFiles, serve, solidImage } from './images-support';
import { startReceivers, type Receivers } from './webhook-receiver';
import { environmentForThisFile } from './file-environment';

// The receivers are reached over loopback HTTPS (endpoints are created here, through the service layer).
environmentForThisFile({ DEV_ALLOW_LOOPBACK_URLS: 'true' });

const SDK_DIR = path.resolve(import.meta.dirname, '..', 'sdk-python');
const TESTS_DIR = path.join(SDK_DIR, 'tests');
const RUN_TIMEOUT_MS = 8 * 60_000;

/** `module.Class.test_name` of every test method in sdk-python/tests/test_*.py, in file order. */
function declaredTests(): string[] {
  const ids: string[] = [];
  for (const file of fs.readdirSync(TESTS_DIR).filter((f) => /^test_\w+\.py$/.test(f)).sort()) {
    const moduleName = file.slice(0, -3);
    let current: string | null = null;
    for (const line of fs.readFileSync(path.join(TESTS_DIR, file), 'utf8').split('\n')) {
      const cls = /^class (\w+)\(/.exec(line);
      if (cls) current = cls[1]!;
      else if (/^\S/.test(line)) current = null;
      const test = /^ {4}def (test_\w+)\(/.exec(line);
      if (test && current) ids.push(`${moduleName}.${current}.${test[1]}`);
    }
  }
  return ids;
}

interface Outcome {
  status: string;
  detail: string;
}

interface Run {
  exitCode: number | null;
  output: string;
  outcomes: Map<string, Outcome>;
  ran: number | null;
}

/** Outcomes from unittest's verbose output: `test_x (module.Class.test_x) ... ok` (3.11+) or `(module.Class)`. */
function parse(output: string): Omit<Run, 'exitCode' | 'output'> {
  const outcomes = new Map<string, Outcome>();
  const id = (name: string, where: string) => (where.endsWith(`.${name}`) ? where : `${where}.${name}`);
  for (const match of output.matchAll(/^(test_\w+) \(([\w.]+)\)(?:\n[^\n]*?)? \.\.\. (ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$/gm)) {
    outcomes.set(id(match[1]!, match[2]!), { status: match[3]!, detail: '' });
  }
  for (const block of output.split(/^={50,}$/m).slice(1)) {
    const head = /^\n?(FAIL|ERROR): (test_\w+) \(([\w.]+)\)/.exec(block);
    if (!head) continue;
    const key = id(head[2]!, head[3]!);
    const outcome = outcomes.get(key) ?? { status: head[1]!, detail: '' };
    outcome.detail = (block.split(/^-{50,}$/m)[1] ?? '').trim();
    outcomes.set(key, outcome);
  }
  const ran = /^Ran (\d+) tests? in /m.exec(output);
  return { outcomes, ran: ran ? Number(ran[1]) : null };
}

function runUnittest(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    // python3 -B: no __pycache__ written into the checkout.
    const child = spawn('python3', ['-B', '-m', 'unittest', 'discover', '-s', 'tests', '-v'], { cwd: SDK_DIR, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    const done = (exitCode: number | null, extra = '') => {
      clearTimeout(timer);
      const all = output + extra;
      resolve({ exitCode, output: all, ...parse(all) });
    };
    child.on('error', (error) => done(null, `\ncould not start python3: ${error.message}`));
    child.on('close', (code) => done(code));
  });
}

type Action = (body: Record<string, unknown>) => Promise<unknown>;

/** The fixture server the Python tests call for what only the service layer can set up. */
async function startFixtures(receivers: Receivers): Promise<{ url: string; close: () => Promise<void> }> {
  const lifts: (() => void)[] = [];
  const actions: Record<string, Action> = {
    // A new organization (tier 9 unless asked, 100 € of credit unless asked) with a test and a live key.
    org: async (b) => {
      const org = await createTestOrg({ ...(b.tier !== undefined ? { tier: Number(b.tier) } : {}), ...(b.credit !== undefined ? { credit: Number(b.credit) } : {}) });
      return { id: org.id, test_key: org.testKey, live_key: org.liveKey };
    },
    key: async (b) => ({ key: await createKey(String(b.org), b.mode === 'live' ? 'live' : 'test', b.permissions as Permission[]) }),
    // A test generation in progress that no worker runs: it stays unstarted (cancelable).
    unstarted: async (b) => ({ id: (await insertGeneration({ organizationId: String(b.org), mode: 'test' })).id }),
    // Succeeded test generations dated `minutes_ago` minutes back, one a minute.
    succeeded: async (b) => {
      for (let i = 0; i < Number(b.count); i++) {
        await insertGeneration({ organizationId: String(b.org), mode: 'test', status: 'succeeded', createdAt: new Date(Date.now() - (i + 1) * 60_000) });
      }
      return { ok: true };
    },
    // The quota's minute full (10 generations, tier 1), its oldest leaving in `seconds_left` s.
    'fill-quota': async (b) => {
      const org = String(b.org);
      for (let i = 0; i < 10; i++) await insertGeneration({ organizationId: org, mode: 'test', status: 'succeeded' });
      await db().generation.updateMany({ where: { organizationId: org }, data: { createdAt: new Date(Date.now() - (60 - Number(b.seconds_left)) * 1000) } });
      return { ok: true };
    },
    // Every generation of the organization keeps its worker slot for `ms` after its engine work.
    hold: async (b) => {
      lifts.push(holdGenerations(String(b.org), Number(b.ms)));
      return { ok: true };
    },
    // What the organization was charged: its generations, its charge ledger lines, its balance.
    charges: async (b) => {
      const org = String(b.org);
      const ledger = await db().balanceTransaction.findMany({ where: { organizationId: org, type: 'charge' }, orderBy: { createdAt: 'asc' } });
      return {
        generations: await db().generation.count({ where: { organizationId: org } }),
        charges: ledger.map((t) => ({ generation: t.generationId, amount: t.amount })),
        balance: (await db().organization.findUniqueOrThrow({ where: { id: org } })).balanceCents,
      };
    },
    // A waiting upload (MCP's create_upload) of the organization's test mode: its id and PUT URL.
    upload: async (b) => {
      const upload = await createUpload({ organizationId: String(b.org), mode: 'test', permissions: new Set(['upscales']), tier: 9, apiKeyId: null });
      return { id: upload.id, upload_url: upload.upload_url };
    },
    // A test-mode webhook endpoint on a receiver of this file.
    endpoint: async (b) => {
      const { endpoint, secret } = await createEndpoint(db(), { organizationId: String(b.org) }, { mode: 'test', url: receivers.url(String(b.name)), events: ['generation.succeeded'] });
      return { id: endpoint.id, secret };
    },
    deliveries: async (b) => ({ deliveries: (await receivers.waitFor(String(b.name), Number(b.count), 60_000)).map((d) => ({ body: d.body, headers: d.headers })) }),
    rotate: async (b) => ({ secret: (await rotateSecret(db(), { organizationId: String(b.org) }, String(b.endpoint))).secret }),
    // The server's own signer (what every delivery carries), for any body, id, time and secrets.
    sign: async (b) => ({ signature: signatureHeader(b.secrets as string[], String(b.id), Number(b.timestamp), String(b.body)) }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const action = actions[(req.url ?? '').slice(1)];
      const answer = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'POST' || !action) return answer(404, { error: `no fixture ${req.method} ${req.url}` });
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch (error) {
        return answer(400, { error: `not JSON: ${(error as Error).message}` });
      }
      action(body).then(
        (result) => answer(200, result),
        (error: unknown) => answer(500, { error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const lift of lifts) lift();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const tests = declaredTests();

describe(`the Python client: python3 -m unittest in sdk-python (${tests.length} tests)`, () => {
  let receivers: Receivers;
  let fixtures: Awaited<ReturnType<typeof startFixtures>>;
  let workDir: string;
  let run: Promise<Run>;

  beforeAll(async () => {
    receivers = await startReceivers();
    fixtures = await startFixtures(receivers);
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-sdk-python-'));
    const jpeg = await noiseImage(320, 240, 'jpeg');
    fs.writeFileSync(path.join(workDir, 'room.jpg'), jpeg);
    fs.writeFileSync(
      path.join(workDir, 'mask.png'),
      await maskPng(320, 240, [
        { x: 0, y: 0, w: 160, h: 240, color: '#FF0000' },
        { x: 160, y: 0, w: 160, h: 240, color: '#0066FF' },
      ]),
    );
    fs.writeFileSync(path.join(workDir, 'element.png'), await solidImage(64, 64, 'png', '#335577'));
    restoreServedFiles();
    run = runUnittest({
      ROOMTONE_TEST_BASE_URL: baseUrl,
      ROOMTONE_TEST_FIXTURES: fixtures.url,
      ROOMTONE_TEST_IP: testIp(),
      ROOMTONE_TEST_IMAGE_URL: serve(jpeg, 'jpg'),
      ROOMTONE_TEST_DIR: workDir,
    });
  });
  afterAll(async () => {
    await run?.catch(() => undefined);
    await fixtures?.close();
    await receivers?.close();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('runs every test it declares, none skipped, and exits 0', { timeout: RUN_TIMEOUT_MS + 30_000 }, async () => {
    const result = await run;
    expect(tests.length).toBeGreaterThan(20);
    const skipped = [...result.outcomes].filter(([, o]) => o.status.startsWith('skipped')).map(([id, o]) => `${id}: ${o.status}`);
    expect(skipped, 'a Python test skipped').toEqual([]);
    expect([...result.outcomes.keys()].sort(), result.output.slice(-4000)).toEqual([...tests].sort());
    expect(result.ran, result.output.slice(-4000)).toBe(tests.length);
    expect(result.exitCode, result.output.slice(-4000)).toBe(0);
  });

  it.each(tests)(
    '%s',
    async (id) => {
      const outcome = (await run).outcomes.get(id);
      expect(outcome, `${id} did not run`).toBeDefined();
      expect(outcome!.status, outcome!.detail).toBe('ok');
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});
