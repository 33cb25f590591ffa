import { redirect } from 'next/navigation';
import { requireSessionUser } from '@/console-server/session';
import { NoMembership } from '@/components/shell/no-membership';
import { service } from '@/console-server/server';

export const metadata = { title: 'No organization · Roomtone console' };
export const dynamic = 'force-dynamic';

/** A signed-in user without any organization; one who has some goes to them. */
export default async function Page() {
  const { me, organizationsOpenToUsers } = await service();
  const view = await me(await requireSessionUser());
  const first = view.organizations[0];
  if (first) redirect(`/o/${first.id}/test/overview`);
  return <NoMembership organizations={[]} canCreateOrganization={organizationsOpenToUsers()} />;
}
