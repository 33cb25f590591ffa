import { AuditScreen } from '@/components/audit/audit-screen';
import { AUDIT_FILTER_KEYS, AUDIT_PAGE_SIZE, auditFilters, type AuditFilterKey } from '@/components/audit/audit-query';
import { Prefetch } from '@/console-server/prefetch';
import type { Mode } from '@/console-client/scope';

export const metadata = { title: 'Audit log · Roomtone console' };

/** The first page of events (for the URL's filters), rendered on the server. */
export default async function Page({ params, searchParams }: { params: Promise<{ orgId: string; mode: Mode }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [{ orgId, mode }, search] = await Promise.all([params, searchParams]);
  const filters: Partial<Record<AuditFilterKey, string>> = {};
  for (const key of AUDIT_FILTER_KEYS) if (typeof search[key] === 'string' && search[key]) filters[key] = search[key];
  const parsed = auditFilters(filters);
  return (
    <Prefetch queries={(trpc) => [trpc.audit.list.queryOptions({ organizationId: orgId, mode, ...(parsed.success ? parsed.data : {}), limit: AUDIT_PAGE_SIZE })]}>
      <AuditScreen />
    </Prefetch>
  );
}
