import { LogsScreen } from '@/components/logs/logs-screen';
import { LOG_FILTER_KEYS, LOG_PAGE_SIZE, logFilters, type LogFilterKey } from '@/components/logs/log-query';
import { Prefetch } from '@/console-server/prefetch';
import type { Mode } from '@/console-client/scope';

export const metadata = { title: 'Request log · Roomtone console' };

/** The first page of lines (for the URL's filters) and the key names, rendered on the server. */
export default async function Page({ params, searchParams }: { params: Promise<{ orgId: string; mode: Mode }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [{ orgId, mode }, search] = await Promise.all([params, searchParams]);
  const filters: Partial<Record<LogFilterKey, string>> = {};
  for (const key of LOG_FILTER_KEYS) if (typeof search[key] === 'string' && search[key]) filters[key] = search[key];
  const scope = { organizationId: orgId, mode };
  const parsed = logFilters(filters);
  return (
    <Prefetch
      queries={(trpc) => [
        trpc.logs.list.queryOptions({ ...scope, ...(parsed.success ? parsed.data : {}), limit: LOG_PAGE_SIZE }),
        trpc.keys.list.queryOptions({ ...scope, includeRevoked: true, limit: 100 }),
      ]}
    >
      <LogsScreen />
    </Prefetch>
  );
}
