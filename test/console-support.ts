/** Console helpers for integration tests: Auth.js sign-in over HTTP, then tRPC calls with the session cookie. */
import { db } from '@/server/platform/db';
import { createUser } from '@/server/orgs/orgs';
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
export async function signIn(email: string, password: string, ip = testIp(), headers: Record<string, string> = {}): Promise<SignInResult> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`, { headers: { 'x-forwarded-for': ip, ...headers } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookies = cookiesOf(csrf);
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: [...csrfCookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-forwarded-for': ip,
      origin: baseUrl,
      ...headers,
    },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${baseUrl}/` }),
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

export async function query<T = unknown>(path: string, input: unknown, cookie: string | null, headers: Record<string, string> = {}): Promise<TrpcResult<T>> {
  const qs = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const res = await fetch(`${baseUrl}/api/trpc/${path}${qs}`, { headers: { ...(cookie ? { cookie } : {}), ...headers } });
  return parse<T>(res);
}

export async function mutate<T = unknown>(
  path: string,
  input: unknown,
  cookie: string | null,
  options: { origin?: string | null; headers?: Record<string, string> } = {},
): Promise<TrpcResult<T>> {
  const origin = options.origin === undefined ? baseUrl : options.origin;
  const res = await fetch(`${baseUrl}/api/trpc/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...(origin ? { origin } : {}), ...options.headers },
    body: JSON.stringify(input),
  });
  return parse<T>(res);
}
