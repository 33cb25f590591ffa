import { BillingScreen } from '@/components/billing/billing-screen';
import { Prefetch } from '@/console-server/prefetch';
import type { Mode } from '@/console-client/scope';

export const metadata = { title: 'Billing · Roomtone console' };

/** The balance, the first page of transactions and of receipts, rendered on the server. */
export default async function Page({ params }: { params: Promise<{ orgId: string; mode: Mode }> }) {
  const { orgId, mode } = await params;
  const scope = { organizationId: orgId, mode };
  return (
    <Prefetch queries={(trpc) => [trpc.billing.get.queryOptions(scope), trpc.billing.transactions.queryOptions(scope), trpc.billing.purchases.queryOptions(scope)]}>
      <BillingScreen />
    </Prefetch>
  );
}
