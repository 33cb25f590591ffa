// @node-lines same: the startup banner's text from our settings
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfigCache } from '@/server/platform/config';
import { startupBanner } from './startup';
import type { Runtime } from './runtime';

const runtime: Runtime = { databaseUrl: 'postgresql://unused', embedded: null, shutdown: async () => {} };

function bannerWith(env: Record<string, string>): string {
  Object.assign(process.env, env);
  resetConfigCache();
  return startupBanner({ processes: 'one process', runtime, demo: null });
}

afterEach(() => {
  delete process.env.PAYMENT_PROVIDER;
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.CONSOLE_OPEN_SIGNUP;
  resetConfigCache();
});

/** The banner says what the manual provider means: no money taken, credit only on the operator's approval. */
describe('startup banner', () => {
  it('manual provider with open sign-up: no payment, the approval commands, and what a public deployment needs', () => {
    const banner = bannerWith({ PAYMENT_PROVIDER: 'manual', CONSOLE_OPEN_SIGNUP: 'true' });
    expect(banner).toContain('Payments: manual provider (PAYMENT_PROVIDER=manual) — no money is taken.');
    expect(banner).toContain('npx roomtone credit requests, then credit approve|reject --purchase cp_…');
    expect(banner).toContain('for a public deployment set PAYMENT_PROVIDER=stripe');
  });

  it('manual provider with sign-up by invitation: the approval line without the public-deployment warning', () => {
    const banner = bannerWith({ PAYMENT_PROVIDER: 'manual', CONSOLE_OPEN_SIGNUP: 'false' });
    expect(banner).toContain('waits for your approval');
    expect(banner).not.toContain('public deployment');
  });

  it('Stripe: no payments notice', () => {
    expect(bannerWith({ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' })).not.toContain('Payments:');
  });
});
