import { config } from '@/server/platform/config';
import { db } from '@/server/platform/db';
import { log } from '@/server/platform/logger';
import { loopbackWarning } from '@/server/capabilities/net/safe-http';
import { seedDemoIfEmpty, type DemoAccount } from '@/server/tools/seed/seed';
import type { Runtime } from './runtime';

/**
 * What the launcher does once the runtime is ready: warn
 * about development settings, create the demo organization on a first run, and say how to
 * reach the service, with the demo's secrets, which are shown this once.
 */
export async function startupChecks(): Promise<DemoAccount | null> {
  const loopback = loopbackWarning();
  if (loopback) log.warn(loopback);
  return config().SEED_DEMO === 'false' ? null : seedDemoIfEmpty(db());
}

export function startupBanner(options: { processes: string; runtime: Runtime; demo: DemoAccount | null }): string {
  const c = config();
  const base = c.publicBaseUrl;
  const reference = c.CONSOLE_ENABLED ? `API reference ${base}/docs` : 'API only: no console (CONSOLE_ENABLED=false)';
  const lines = [`Roomtone is up: ${base}  (API ${base}/v1, ${reference}, health ${base}/healthz; ${options.processes})`];
  if (options.runtime.embedded) lines.push(`Database: embedded PostgreSQL under ${c.dataDir}`);
  if (c.PAYMENT_PROVIDER === 'manual') lines.push(...manualPaymentsNotice(c.CONSOLE_OPEN_SIGNUP));
  const demo = options.demo;
  if (demo) {
    lines.push(
      '',
      'First run: a demo organization was created. These secrets are shown once — keep them:',
      `  organization  ${demo.organizationId}`,
      `  test key      ${demo.testKey}`,
      `  live key      ${demo.liveKey}`,
      `  console login ${demo.email} / ${demo.password}`,
      '',
      `Try: curl -H "Authorization: Bearer ${demo.testKey}" ${base}/v1/styles`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The manual provider takes no money: credit asked for in the console (and every auto-recharge)
 * waits for the operator. Said at each start, so a public deployment is not opened by mistake.
 */
export function manualPaymentsNotice(openSignUp: boolean): string[] {
  return [
    'Payments: manual provider (PAYMENT_PROVIDER=manual) — no money is taken. Credit asked for in the console,',
    '  and every auto-recharge, waits for your approval: npx roomtone credit requests, then credit approve|reject --purchase cp_…',
    openSignUp
      ? '  Sign-up is open (CONSOLE_OPEN_SIGNUP=true): for a public deployment set PAYMENT_PROVIDER=stripe, or approve only whom you trust.'
      : '  Sign-up is by invitation (CONSOLE_OPEN_SIGNUP=false).',
  ];
}
