import { OverviewScreen } from '@/components/overview/overview-screen';
import { Prefetch } from '@/console-server/prefetch';
import type { Mode } from '@/console-client/scope';

export const metadata = { title: 'Overview · Roomtone console' };

export default async function Page({ params }: { params: Promise<{ orgId: string; mode: Mode }> }) {
  const { orgId, mode } = await params;
  return (
    <Prefetch queries={(trpc) => [trpc.overview.get.queryOptions({ organizationId: orgId, mode })]}>
      <OverviewScreen />
    </Prefetch>
  );
}
