import { GenerationsScreen } from '@/components/generations/generations-screen';
import { Prefetch } from '@/console-server/prefetch';
import type { Mode } from '@/console-client/scope';

export const metadata = { title: 'Generations · Roomtone console' };

/** The first page rendered on the server when no filter is in the URL (a filtered one is read by the page). */
export default async function Page({ params, searchParams }: { params: Promise<{ orgId: string; mode: Mode }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [{ orgId, mode }, search] = await Promise.all([params, searchParams]);
  const filtered = ['type', 'status', 'from', 'to'].some((key) => search[key] !== undefined);
  return (
    <Prefetch queries={(trpc) => (filtered ? [] : [trpc.generations.list.queryOptions({ organizationId: orgId, mode })])}>
      <GenerationsScreen />
    </Prefetch>
  );
}
