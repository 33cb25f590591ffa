/**
 * Starts Roomtone as a new user would (`npm start` = scripts/start.ts): embedded PostgreSQL in a
 * fresh temporary DATA_DIR, migrations, the first-run demo organization, the production build
 * (built by the launcher when missing or stale; SKIP_BUILD=1 skips that check), jobs. The demo
 * owner's login and keys are read from the first-run banner, as a person would read them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { FullConfig } from '@playwright/test';
import { makeTestCertificates } from '../test/tls';

const root = path.resolve(import.meta.dirname, '..');

export interface E2EState {
  baseUrl: string;
  dataDir: string;
  organizationId: string;
  testKey: string;
  liveKey: string;
  email: string;
  password: string;
  /** A leaf certificate for 127.0.0.1 / ::1 the server trusts: the webhook receivers tests start on :443. */
  receiverTls: { key: string; cert: string };
}

function field(banner: string, label: string): string {
  const match = new RegExp(`^\\s*${label}\\s+(\\S+)`, 'm').exec(banner);
  if (!match?.[1]) throw new Error(`the first-run banner has no "${label}":\n${banner}`);
  return match[1];
}

export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-e2e-'));
  const port = Number(process.env.E2E_PORT ?? 3100);
  const baseUrl = `http://127.0.0.1:${port}`;
  // Webhook receivers of the tests are HTTPS servers on loopback, as in test/webhooks.test.ts.
  const certs = await makeTestCertificates('Roomtone e2e CA');
  const caPath = path.join(dataDir, 'e2e-ca.pem');
  fs.writeFileSync(caPath, certs.caPem);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: baseUrl,
      NODE_ENV: 'production',
      WEB_PROCESSES: '1',
      WORKER_CONCURRENCY: '1',
      WORKER_LIGHT_CONCURRENCY: '1',
      // Every e2e test signs the same owner in; the per-account limit itself is tested in
      // test/console-auth.test.ts, so here it must not refuse the sixth test of a minute.
      SIGNIN_ATTEMPTS_PER_ACCOUNT_PER_MINUTE: '1000',
      // Each job holds the one worker slot this long, so the e2e can queue a generation
      // behind another and cancel it in the console before it starts.
      BUILTIN_ENGINE_MIN_DURATION_MS: '8000',
      LOG_LEVEL: 'warn',
      DEV_ALLOW_LOOPBACK_URLS: 'true',
      NODE_EXTRA_CA_CERTS: caPath,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString();
    if (process.env.E2E_SERVER_LOGS === '1') process.stderr.write(d);
  });

  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output.slice(-4000)}`);
    if (output.includes('console login')) {
      try {
        if ((await fetch(`${baseUrl}/healthz`)).ok) break;
      } catch {
        // not listening yet
      }
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start with a first-run banner in time:\n${output.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const [email, password] = /console login\s+(\S+)\s+\/\s+(\S+)/.exec(output)?.slice(1) ?? [];
  if (!email || !password) throw new Error(`no console login in the banner:\n${output}`);
  const state: E2EState = {
    baseUrl,
    dataDir,
    organizationId: field(output, 'organization'),
    testKey: field(output, 'test key'),
    liveKey: field(output, 'live key'),
    email,
    password,
    receiverTls: { key: certs.key, cert: certs.cert },
  };
  const statePath = path.join(dataDir, 'e2e-state.json');
  fs.writeFileSync(statePath, JSON.stringify(state));
  // Workers inherit the environment globalSetup leaves.
  process.env.E2E_STATE = statePath;
  process.env.E2E_BASE_URL = baseUrl;

  return async () => {
    child.kill('SIGTERM');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve();
      }, 20_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    if (process.env.E2E_KEEP_DATA !== '1') fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
