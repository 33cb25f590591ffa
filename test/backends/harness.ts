/**
 * A second Roomtone server for backend tests: the same production start (scripts/start.mjs),
 * on a database of its own in the test cluster (so the shared server's workers never take its
 * jobs), configured with a generative backend. Optionally behind an HTTPS front (a TLS
 * terminating proxy, as in production) so PUBLIC_BASE_URL can be https for webhooks.
 */
import { inject } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { recreateDatabase, dropDatabase } from '@/server/platform/embedded-postgres';
import { migrateDatabase } from '@/server/tools/migrations/migrate-database';
import { freePort } from '@/server/platform/ports';
import { resetConfigCache, setEnv } from '@/server/platform/config';
import { closeDb } from '@/server/platform/db';
import { restoreEnvironment } from '../file-environment';
import { makeTestCertificates, type TestCertificates } from '../tls';
import { startProcess, TEST_NODE_FLAGS, type StartedProcess } from '../start-server';
import { API_ONLY } from '../server-processes';

const root = path.resolve(import.meta.dirname, '../..');

export interface BackendTestEnv {
  certs: TestCertificates;
  caBundle: string;
  databaseUrl: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * One database and one data directory (blobs) per test file; this process's db() and storage
 * point at them until `close()`, which gives back the environment and closes the pool on them
 * (the worker process may go on to another file). The data directory is the file's own because
 * other files check the shared one for inputs without a generation in the shared database.
 */
export async function prepareBackendTestEnv(name: string): Promise<BackendTestEnv> {
  const adminUrl = inject('adminDatabaseUrl');
  const database = `roomtone_${name}_${process.pid}`;
  const databaseUrl = adminUrl.replace(/\/postgres$/, `/${database}`);
  await recreateDatabase(adminUrl, database, { template: inject('migratedTemplate') });
  await migrateDatabase(databaseUrl); // a copy of the run's migrated template: nothing left to apply
  const dataDir = path.join(root, '.data', 'test', `backend-${name}-${process.pid}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const found = { ...process.env };
  // The pool on the database before closes first (a pool that db() only replaces stays open).
  await closeDb();
  setEnv('DATABASE_URL', databaseUrl);
  setEnv('DATA_DIR', dataDir);
  setEnv('APP_SECRET', 'roomtone-test-secret-0123456789abcdefghijklmnop');
  resetConfigCache();
  const certs = await makeTestCertificates('Roomtone Backend Test CA');
  const caBundle = path.join(root, '.data', 'test', `backend-ca-${process.pid}.pem`);
  fs.mkdirSync(path.dirname(caBundle), { recursive: true });
  fs.writeFileSync(caBundle, certs.caPem);
  return {
    certs,
    caBundle,
    databaseUrl,
    dataDir,
    close: async () => {
      await closeDb();
      restoreEnvironment(found);
      fs.rmSync(caBundle, { force: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
      await dropDatabase(adminUrl, database).catch(() => undefined);
    },
  };
}

export interface RoomtoneServer {
  /** Where the test talks to it (the HTTPS front when there is one). */
  baseUrl: string;
  output(): string;
  stop(): Promise<void>;
}

export async function startRoomtone(env: BackendTestEnv, extra: Record<string, string>, options: { httpsFront?: boolean; stopTimeoutMs?: number; nodeFlags?: string[] } = {}): Promise<RoomtoneServer> {
  const port = await freePort();
  let front: https.Server | null = null;
  let baseUrl = `http://127.0.0.1:${port}`;
  if (options.httpsFront) {
    const frontPort = await freePort();
    front = https.createServer({ key: env.certs.key, cert: env.certs.cert }, (req, res) => {
      const upstream = http.request({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    await new Promise<void>((r) => front!.listen(frontPort, '127.0.0.1', () => r()));
    baseUrl = `https://127.0.0.1:${frontPort}`;
  }
  let server: StartedProcess;
  try {
    server = await startProcess({
      name: 'the backend test server',
      port,
      processes: 1,
      timeoutMs: 120_000,
      ...(options.stopTimeoutMs ? { stopTimeoutMs: options.stopTimeoutMs } : {}),
      nodeFlags: [...TEST_NODE_FLAGS, ...(options.nodeFlags ?? [])],
      echoEnv: 'TEST_SERVER_LOGS',
      env: {
        PUBLIC_BASE_URL: baseUrl,
        DATABASE_URL: env.databaseUrl,
        DATA_DIR: env.dataDir,
        SKIP_BUILD: '1',
        SEED_DEMO: 'false',
        TRUST_PROXY: 'true',
        NODE_ENV: 'production',
        DEV_ALLOW_LOOPBACK_URLS: 'true',
        NODE_EXTRA_CA_CERTS: env.caBundle,
        BUILTIN_ENGINE_MIN_DURATION_MS: '0',
        LOG_LEVEL: process.env.TEST_SERVER_LOGS === '1' ? 'info' : 'warn',
        // The backend files use /v1 and webhooks only: no console, Next.js never loaded.
        ...API_ONLY,
        ...extra,
      },
    });
  } catch (error) {
    front?.close();
    throw error;
  }
  return {
    baseUrl,
    output: () => server.output(),
    stop: async () => {
      await server.stop();
      front?.closeAllConnections();
      await new Promise((r) => (front ? front.close(() => r(undefined)) : r(undefined)));
    },
  };
}

/** GET over HTTPS (or HTTP) trusting the test CA: output URLs behind the HTTPS front. */
export function getBytes(url: string, ca: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const mod = url.startsWith('https:') ? https : http;
    mod
      .get(url, url.startsWith('https:') ? { ca } : {}, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** A request to the server with a key, JSON or multipart (through the HTTPS front when present). */
export async function call<T = Record<string, unknown>>(server: RoomtoneServer, ca: string, pathname: string, options: { key: string; body?: FormData | Record<string, unknown>; method?: string }): Promise<{ status: number; body: T }> {
  const isForm = options.body instanceof FormData;
  const request = new Request(`${server.baseUrl}${pathname}`, {
    method: options.method ?? (options.body ? 'POST' : 'GET'),
    headers: { authorization: `Bearer ${options.key}`, 'x-forwarded-for': '198.51.100.7', ...(options.body && !isForm ? { 'content-type': 'application/json' } : {}) },
    body: options.body ? (isForm ? (options.body as FormData) : JSON.stringify(options.body)) : undefined,
  });
  const headers = Object.fromEntries(request.headers);
  const body = options.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const url = new URL(request.url);
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, { method: request.method, headers, ...(url.protocol === 'https:' ? { ca } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as T }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
