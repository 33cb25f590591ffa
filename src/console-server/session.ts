import { cache } from 'react';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { SessionUser } from '@/server/capabilities/auth/sessions';
import { safeCallbackPath } from '@/shared/auth/callback-url';
import { REQUEST_PATH_HEADER } from './request-path';
import { service } from './server';

/** The request's console session (complete or waiting for its second factor), read once per request. */
export const consoleSession = cache(async () => {
  const h = await headers();
  return (await service()).readConsoleSession(h.get('cookie'), { ip: null, userAgent: h.get('user-agent') });
});

/** The request's signed-in user, read once per request (the layout and the page both ask). */
export const sessionUser = cache(async () => (await consoleSession()).user);

/**
 * The signed-in user, or a redirect that comes back here afterwards (HTTP 307, before any of the
 * page is rendered): to sign-in (`/sign-in?callbackUrl=<path>`), or to the two-factor code step
 * when the session waits for it.
 */
export async function requireSessionUser(): Promise<SessionUser> {
  const { user, pending } = await consoleSession();
  if (!user) {
    const back = encodeURIComponent(safeCallbackPath((await headers()).get(REQUEST_PATH_HEADER), (await service()).config().publicBaseUrl));
    redirect(pending ? `/sign-in/two-factor?callbackUrl=${back}` : `/sign-in?callbackUrl=${back}`);
  }
  return user;
}
