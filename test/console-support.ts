/** Console helpers for integration tests: Auth.js sign-in over HTTP, then tRPC calls with the session cookie. */
import { expect } from 'vitest';
import { db } from '@/server/platform/db';
import { createUser } from '@/server/capabilities/orgs/orgs';
import type { MemberRole } from '@/generated/prisma/enums';
import { baseUrl, testIp } from './support';

export const PASSWORD = 'correct horse battery staple';

let userCount = 0;
export function uniqueEmail(label: string): string {
  return `${label}-${process.pid}-${Date.now()}-${++userCount}@example.com`;
}

/** A console user with `role` in the organization (created through the CLI's own service). */
export async function createMember(organizationId: string, role: MemberRole, email = uniqueEmail(role)): Promise<{ id: string; email: string }> {
  const user = await db().$transaction((tx) => createUser(tx, { email, password: PASSWORD, organizationId, role }));
  return { id: user.id, email: user.email };
}

function cookiesOf(res: Response): Map<string, string> {
  const jar = new Map<string, string>();
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
  }
  return jar;
}

export interface SignInResult {
  /** The Cookie header to send (session token), or null when the sign-in failed. */
  cookie: string | null;
  /** Where Auth.js redirected (carries ?error=…&code=… on failure). */
  location: string;
  setCookies: string[];
}

/** Sign in exactly as the browser does: CSRF token + cookie, then the credentials callback. */
export async function signIn(email: string, password: string, ip = testIp(), base = baseUrl, headers: Record<string, string> = {}): Promise<SignInResult> {
  const csrf = await fetch(`${base}/api/auth/csrf`, { headers: { 'x-forwarded-for': ip, ...headers } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookies = cookiesOf(csrf);
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: [...csrfCookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-forwarded-for': ip,
      origin: base,
      ...headers,
    },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${base}/` }),
  });
  const jar = cookiesOf(res);
  const token = jar.get('authjs.session-token');
  return { cookie: token ? `authjs.session-token=${token}` : null, location: res.headers.get('location') ?? '', setCookies: res.headers.getSetCookie() };
}

export async function signedIn(email: string, password = PASSWORD): Promise<string> {
  const result = await signIn(email, password);
  if (!result.cookie) throw new Error(`sign-in of ${email} failed: ${result.location}`);
  return result.cookie;
}

export interface TrpcResult<T = unknown> {
  status: number;
  data: T;
  error: { code: string; message: string; param?: string } | null;
  httpStatus: number | null;
}

async function parse<T>(res: Response): Promise<TrpcResult<T>> {
  const body = (await res.json()) as { result?: { data: T }; error?: { data?: { apiError?: TrpcResult['error']; httpStatus?: number } } };
  return {
    status: res.status,
    data: body.result?.data as T,
    error: body.error?.data?.apiError ?? null,
    httpStatus: body.error?.data?.httpStatus ?? null,
  };
}

/**
 * The client address of this file's console calls unless a call names its own: per-IP limits
 * (sign-in and sign-up attempts, which creating an organization also counts) then count one
 * file's calls, not those of every file running beside it or before it in the same worker
 * process (@worker-process shared: this module then outlives the file).
 */
const fileIps = new Map<string, string>();
function fileIp(): string {
  const file = expect.getState().testPath ?? '';
  let ip = fileIps.get(file);
  if (ip === undefined) fileIps.set(file, (ip = testIp()));
  return ip;
}

export async function query<T = unknown>(path: string, input: unknown, cookie: string | null, headers: Record<string, string> = {}): Promise<TrpcResult<T>> {
  const qs = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const res = await fetch(`${baseUrl}/api/trpc/${path}${qs}`, { headers: { 'x-forwarded-for': fileIp(), ...(cookie ? { cookie } : {}), ...headers } });
  return parse<T>(res);
}

export async function mutate<T = unknown>(
  path: string,
  input: unknown,
  cookie: string | null,
  options: { origin?: string | null; headers?: Record<string, string>; base?: string } = {},
): Promise<TrpcResult<T>> {
  const base = options.base ?? baseUrl;
  const origin = options.origin === undefined ? base : options.origin;
  const res = await fetch(`${base}/api/trpc/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': fileIp(), ...(cookie ? { cookie } : {}), ...(origin ? { origin } : {}), ...options.headers },
    body: JSON.stringify(input),
  });
  return parse<T>(res);
}

/** The newest mail to `email` in the mail record (what reaches that mailbox), optionally by subject. */
export async function lastMailTo(email: string, subject?: string): Promise<{ subject: string; body: string; kind: string }> {
  const mail = await db().mailOutbox.findFirst({ where: { to: email, ...(subject ? { subject: { contains: subject } } : {}) }, orderBy: { createdAt: 'desc' } });
  if (!mail) throw new Error(`no mail to ${email}${subject ? ` about "${subject}"` : ''}`);
  return mail;
}

/** The first link in a mail body that contains `fragment`. */
export function linkIn(body: string, fragment: string): string {
  const link = (body.match(/https?:\/\/\S+/g) ?? []).find((l) => l.includes(fragment));
  if (!link) throw new Error(`no link with ${fragment} in: ${body}`);
  return link;
}

function csrfCookieHeader(res: Response): string {
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/** Ask Auth.js for an e-mail sign-in link, as the sign-in page's "E-mail me a link" does. */
export async function requestSignInLink(email: string, callbackUrl = `${baseUrl}/`, ip = testIp()): Promise<Response> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`, { headers: { 'x-forwarded-for': ip } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return fetch(`${baseUrl}/api/auth/signin/email`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookieHeader(csrf), 'x-forwarded-for': ip, origin: baseUrl },
    body: new URLSearchParams({ csrfToken, email, callbackUrl }),
  });
}

/** Open a mailed sign-in link: the session cookie it sets (or null) and where it leads. */
export async function openSignInLink(link: string): Promise<{ cookie: string | null; location: string }> {
  const res = await fetch(link, { redirect: 'manual' });
  const session = res.headers.getSetCookie().find((c) => c.startsWith('authjs.session-token=') && !c.includes('Expires=Thu, 01 Jan 1970'));
  return { cookie: session ? session.split(';')[0]! : null, location: res.headers.get('location') ?? '' };
}

/**
 * Open sign-up as a newcomer does: the account, then the confirmation link from their own
 * mailbox with their password, then a password sign-in. Returns the session and the new organization.
 */
export async function signUpVerified(organizationName: string, email = uniqueEmail('founder')): Promise<{ email: string; cookie: string; organizationId: string; userId: string }> {
  const created = await mutate<{ status: string }>('auth.signUp', { email, password: PASSWORD, organizationName }, null, { headers: { 'x-forwarded-for': testIp() } });
  if (created.data?.status !== 'check_email') throw new Error(`sign-up of ${email}: ${JSON.stringify(created)}`);
  const token = new URL(linkIn((await lastMailTo(email, 'Confirm your e-mail address')).body, '/verify-email?')).searchParams.get('token');
  const verified = await mutate('auth.verifyEmail', { token, password: PASSWORD }, null, { headers: { 'x-forwarded-for': testIp() } });
  if (verified.status !== 200) throw new Error(`verification of ${email}: ${JSON.stringify(verified)}`);
  const cookie = await signedIn(email);
  const user = await db().user.findUniqueOrThrow({ where: { email }, include: { memberships: true } });
  return { email, cookie, organizationId: user.memberships[0]!.organizationId, userId: user.id };
}
