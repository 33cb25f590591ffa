/**
 * Starts Roomtone as a new user would (`npm start` = scripts/start.mjs): embedded PostgreSQL in a
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
import { startFakeStripe } from '../test/stripe-server';
import pg from 'pg';
import { databaseUrl } from './mailbox';
import { startFakeComfy } from '../test/backends/comfyui-server';
import { ensureSdkBuild } from '../test/sdk-build';

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
  /** The local ComfyUI of live decorations, and the CA its certificate is signed by. */
  comfy: { url: string; caPem: string };
  /** The server's BUILTIN_ENGINE_HOLDS_DIR (see holdEngineRuns in e2e/fixtures.ts). */
  engineHoldDir: string;
}

function field(banner: string, label: string): string {
  const match = new RegExp(`^\\s*${label}\\s+(\\S+)`, 'm').exec(banner);
  if (!match?.[1]) throw new Error(`the first-run banner has no "${label}":\n${banner}`);
  return match[1];
}

export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  // The playground's SDK tab runs its copied code against the built package.
  if (process.env.SKIP_BUILD !== '1') ensureSdkBuild();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-e2e-'));
  const port = Number(process.env.E2E_PORT ?? 3100);
  const engineHoldDir = path.join(dataDir, 'engine-holds');
  fs.mkdirSync(engineHoldDir);
  // Webhook receivers of the tests are HTTPS servers on loopback, as in test/webhooks.test.ts.
  const certs = await makeTestCertificates('Roomtone e2e CA');
  const caPath = path.join(dataDir, 'e2e-ca.pem');
  fs.writeFileSync(caPath, certs.caPem);
  // Live decorations run on a local ComfyUI (its HTTP API and progress websocket, a slow run of
  // 20 sampler steps of 1 s, held at the 18th until the test releases it, so the run ends two
  // seconds after the release): the progress e2e watches one move. Test mode keeps the preview.
  const comfy = await startFakeComfy(certs, { defaultBehaviour: 'slow', slowMs: 20_000, holdAtStep: 18 });
  // Stripe, as the console's "Add credit" reaches it: the local stand-in (test/stripe-server.ts)
  // serves Checkout's hosted page and sends its signed webhooks to the server.
  const stripeWebhookSecret = 'whsec_roomtone_e2e_0123456789';
  const stripe = await startFakeStripe({ webhook: { url: `http://127.0.0.1:${port}/api/payments/stripe`, secret: stripeWebhookSecret } });
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
      // Every e2e test signs the same owner in; the per-account limit itself is tested in
      // test/console-auth.test.ts, so here it must not refuse the sixth test of a minute.
      SIGNIN_ATTEMPTS_PER_ACCOUNT_PER_MINUTE: '1000',
      // Likewise per IP (every browser here is 127.0.0.1; the redirect corpus alone signs in a
      // dozen times, a two-factor scenario makes a dozen attempts with its codes).
      SIGNIN_ATTEMPTS_PER_IP_PER_MINUTE: '1000',
      // Generations run at the engine's own speed on the default worker slots; the one test that
      // needs a generation to wait in the queue holds its organization's runs (holdEngineRuns).
      BUILTIN_ENGINE_HOLDS_DIR: engineHoldDir,
      LOG_LEVEL: 'warn',
      DEV_ALLOW_LOOPBACK_URLS: 'true',
      NODE_EXTRA_CA_CERTS: caPath,
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_roomtone_e2e',
      STRIPE_API_BASE: stripe.url,
      STRIPE_WEBHOOK_SECRET: stripeWebhookSecret,
      ENGINE_DECORATION: 'comfyui:img2img',
      COMFYUI_URL: comfy.url,
    },
  }).catch(async (error: unknown) => {
    await comfy.close();
    await stripe.close();
    throw error;
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
    comfy: { url: comfy.url, caPem: certs.caPem },
    engineHoldDir,
  };
  // Two workers share the demo organization: tier 2's quota (30 generations a minute in each
  // mode) keeps one worker's creations from refusing the other's (tier 1 allows 10).
  const client = new pg.Client({ connectionString: databaseUrl(dataDir) });
  await client.connect();
  await client.query('update "Organization" set tier = 2 where id = $1', [state.organizationId]);
  await client.end();
  const statePath = path.join(dataDir, 'e2e-state.json');
  fs.writeFileSync(statePath, JSON.stringify(state));
  // Workers inherit the environment globalSetup leaves.
  process.env.E2E_STATE = statePath;
  process.env.E2E_BASE_URL = baseUrl;

  return async () => {
    await server.stop();
    await stripe.close();
    await comfy.close();
    if (process.env.E2E_KEEP_DATA !== '1') fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
