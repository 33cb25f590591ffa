import { KeysScreen } from '@/components/keys/keys-screen';
import { Prefetch } from '@/console-server/prefetch';
import type { Mode } from '@/console-client/scope';

export const metadata = { title: 'API keys · Roomtone console' };

/** The first page of keys (revoked ones hidden, as the screen opens) rendered on the server. */
export default async function Page({ params }: { params: Promise<{ orgId: string; mode: Mode }> }) {
  const { orgId, mode } = await params;
  return (
    <Prefetch queries={(trpc) => [trpc.keys.list.queryOptions({ organizationId: orgId, mode, includeRevoked: false })]}>
      <KeysScreen />
    </Prefetch>
  );
}
