import type { ReactNode } from 'react';
import { notFound } from 'next/navigation';
import { ConsoleShell } from '@/components/shell/console-shell';
import { Prefetch } from '@/console-server/prefetch';
import { requireSessionUser } from '@/console-server/session';
import { service } from '@/console-server/server';

/**
 * The shell renders on the server with the session's user and organizations (me.get prefetched).
 * Without a session the server answers a redirect to sign-in, never the page.
 */
export default async function ConsoleLayout({ children, params }: { children: ReactNode; params: Promise<{ orgId: string; mode: string }> }) {
  const { orgId, mode } = await params;
  if (mode !== 'test' && mode !== 'live') notFound();
  await requireSessionUser();
  const { organizationsOpenToUsers } = await service();
  return (
    <Prefetch queries={(trpc) => [trpc.me.get.queryOptions()]}>
      <ConsoleShell organizationId={orgId} mode={mode} canCreateOrganization={organizationsOpenToUsers()}>
        {children}
      </ConsoleShell>
    </Prefetch>
  );
}
