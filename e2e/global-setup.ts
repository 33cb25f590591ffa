/**
 * Starts Roomtone as a new user would (`npm start` = scripts/start.ts): embedded PostgreSQL in a
 * fresh temporary DATA_DIR, migrations, the first-run demo organization, the production build
 * (built by the launcher when missing or stale; SKIP_BUILD=1 skips that check), jobs. The demo
 * owner's login and keys are read from the first-run banner, as a person would read them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startProcess } from '../test/start-server';
import { makeTestCertificates } from '../test/tls';

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
  // Webhook receivers of the tests are HTTPS servers on loopback, as in test/webhooks.test.ts.
  const certs = await makeTestCertificates('Roomtone e2e CA');
  const caPath = path.join(dataDir, 'e2e-ca.pem');
  fs.writeFileSync(caPath, certs.caPem);
  const server = await startProcess({
    name: 'the e2e server',
    port,
    processes: 1,
    timeoutMs: 240_000,
    echoEnv: 'E2E_SERVER_LOGS',
    // The first-run banner, up to the demo owner's whole login line.
    ready: (output) => /console login\s+\S+\s+\/\s+\S+\n/.test(output),
    stopTimeoutMs: 20_000,
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      NODE_ENV: 'production',
      WORKER_CONCURRENCY: '1',
      WORKER_LIGHT_CONCURRENCY: '1',
      // Every e2e test signs the same owner in; the per-account limit itself is tested in
      // test/console-auth.test.ts, so here it must not refuse the sixth test of a minute.
      SIGNIN_ATTEMPTS_PER_ACCOUNT_PER_MINUTE: '1000',
      // Likewise per IP (every browser here is 127.0.0.1; the redirect corpus alone signs in a dozen times).
      SIGNIN_ATTEMPTS_PER_IP_PER_MINUTE: '1000',
      // Each job holds the one worker slot this long, so the e2e can queue a generation
      // behind another and cancel it in the console before it starts.
      BUILTIN_ENGINE_MIN_DURATION_MS: '8000',
      LOG_LEVEL: 'warn',
      DEV_ALLOW_LOOPBACK_URLS: 'true',
      NODE_EXTRA_CA_CERTS: caPath,
    },
  });
  const baseUrl = server.url;
  const output = server.output();
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
    await server.stop();
    if (process.env.E2E_KEEP_DATA !== '1') fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
