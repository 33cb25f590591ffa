import { redirect } from 'next/navigation';
import { consoleSession } from '@/console-server/session';
import { service } from '@/console-server/server';

/**
 * `/`, decided on the server (no client round trip, no 401 logged by the browser): signed out →
 * sign-in (or its code step when the session waits for its second factor); a member → their first organization's test-mode overview; a signed-in user without any
 * organization (removed from the last one) → the page that says so.
 */
export default async function Home() {
  const { user, pending } = await consoleSession();
  if (!user) redirect(pending ? '/sign-in/two-factor' : '/sign-in');
  const first = (await (await service()).me(user)).organizations[0];
  redirect(first ? `/o/${first.id}/test/overview` : '/no-organization');
}
