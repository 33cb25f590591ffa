import { WebhooksScreen } from '@/components/webhooks/webhooks-screen';
import { Prefetch } from '@/console-server/prefetch';
import type { Mode } from '@/console-client/scope';

export const metadata = { title: 'Webhooks · Roomtone console' };

/** The endpoints rendered on the server. */
export default async function Page({ params }: { params: Promise<{ orgId: string; mode: Mode }> }) {
  const { orgId, mode } = await params;
  return (
    <Prefetch queries={(trpc) => [trpc.webhooks.list.queryOptions({ organizationId: orgId, mode })]}>
      <WebhooksScreen />
    </Prefetch>
  );
}
