import { DomainError } from '@/server/platform/errors';
import { config } from '@/server/platform/config';
import { hitRateLimit } from '@/server/capabilities/limits/request-rate';

/**
 * Brute-force protection for console sign-in (password and e-mail link requests): every attempt
 * counts against its account and its client IP, in the same counters as the API's request
 * limits (exact across web processes). The 'org' counter family is keyed here by account, with
 * a prefix so it never meets an organization id.
 */
export async function signInAttemptAllowed(email: string, ip: string | null): Promise<boolean> {
  const c = config();
  const [account, byIp] = await Promise.all([
    hitRateLimit('org', `signin:${email}`, c.SIGNIN_ATTEMPTS_PER_ACCOUNT_PER_MINUTE),
    hitRateLimit('ip', `signin:${ip ?? 'unknown'}`, c.SIGNIN_ATTEMPTS_PER_IP_PER_MINUTE),
  ]);
  return account.allowed && byIp.allowed;
}

/** The same limits for the console's other unauthenticated forms (sign-up, reset requests). */
export async function requireAttemptAllowed(email: string, ip: string | null): Promise<void> {
  if (!(await signInAttemptAllowed(email, ip))) {
    throw new DomainError('rate_limit_exceeded', 'Too many attempts. Wait a minute and try again.', { retryAfterSeconds: 60 });
  }
}
