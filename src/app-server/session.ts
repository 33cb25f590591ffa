import { cache } from 'react';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { sessionUserFromCookies, type SessionUser } from '@/server/auth/sessions';
import { config } from '@/server/platform/config';
import { safeCallbackPath } from '@/server/auth/callback-url';
import { REQUEST_PATH_HEADER } from './request-path';

/** The request's console session, read once per request (the layout and the page both ask). */
export const sessionUser = cache(async () => sessionUserFromCookies((await headers()).get('cookie')));

/**
 * The signed-in user, or a redirect to sign-in that comes back here afterwards (HTTP 307 with
 * `Location: /sign-in?callbackUrl=<path>`, before any of the page is rendered).
 */
export async function requireSessionUser(): Promise<SessionUser> {
  const user = await sessionUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(safeCallbackPath((await headers()).get(REQUEST_PATH_HEADER), config().publicBaseUrl))}`);
  return user;
}
