import { OverviewScreen, OVERVIEW_RECENT } from '@/components/overview/overview-screen';
import { Prefetch } from '@/console-server/prefetch';
import type { Mode } from '@/console-client/scope';

export const metadata = { title: 'Overview · Roomtone console' };

export default async function Page({ params }: { params: Promise<{ orgId: string; mode: Mode }> }) {
  const { orgId, mode } = await params;
  const scope = { organizationId: orgId, mode };
  return (
    <Prefetch
      queries={(trpc) => [
        trpc.overview.get.queryOptions(scope),
        trpc.spendAlerts.notices.queryOptions(scope),
        trpc.logs.list.queryOptions({ ...scope, limit: OVERVIEW_RECENT }),
        trpc.generations.list.queryOptions({ ...scope, limit: OVERVIEW_RECENT }),
      ]}
    >
      <OverviewScreen />
    </Prefetch>
  );
}
