'use client';
import * as React from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTRPC, type ConsoleOutputs } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';
import { dateTime, money } from '@/console-client/format';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useCursorPages, type Column } from '@/components/ui/data-table';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { QueryTable } from '@/components/ui/query-table';
import { EmptyState, ErrorState } from '@/components/ui/states';
import { AddCreditDialog, usePurchaseReturn } from './add-credit';
import { AutoRechargeForm, useCardSetupReturn } from './auto-recharge';
import { Receipts } from './receipts';
import { RelativeTime } from '@/components/ui/relative-time';

type TransactionType = TransactionRow['type'];
const TYPES: readonly TransactionType[] = ['credit', 'charge', 'refund', 'recharge', 'expiry'];

type TransactionRow = ConsoleOutputs['billing']['transactions']['data'][number];

/** Money is the organization's (live mode only charges): the same figures in both modes. */
export function BillingScreen() {
  const trpc = useTRPC();
  const input = useScopeInput();
  const billing = useQuery(trpc.billing.get.queryOptions(input));
  const [type, setType] = React.useState<TransactionType | 'all'>('all');
  const pages = useCursorPages(`${input.organizationId}/${type}`);
  const transactions = useQuery(trpc.billing.transactions.queryOptions({ ...input, type: type === 'all' ? undefined : type, cursor: pages.cursor }));
  usePurchaseReturn();
  useCardSetupReturn();

  const columns: Column<TransactionRow>[] = [
    { id: 'created', header: 'Date', cell: ({ row }) => <RelativeTime seconds={row.original.created_at} /> },
    { id: 'type', header: 'Type', cell: ({ row }) => <Badge variant="secondary">{row.original.type}</Badge> },
    { id: 'description', header: 'Description', cell: ({ row }) => row.original.description },
    {
      id: 'amount',
      header: 'Amount',
      cell: ({ row }) => <span className={row.original.amount_cents < 0 ? 'whitespace-nowrap tabular-nums' : 'whitespace-nowrap tabular-nums text-success'}>{money(row.original.amount_cents)}</span>,
    },
    { id: 'balance', header: 'Balance after', cell: ({ row }) => <span className="whitespace-nowrap tabular-nums">{money(row.original.balance_after_cents)}</span> },
    { id: 'expires', header: 'Expires', cell: ({ row }) => (row.original.expires_at ? dateTime(row.original.expires_at) : '—') },
  ];

  return (
    <>
      <PageHeader title="Billing" description="Balance, spend and the ledger of the organization. Test mode never charges; these are live figures." />
      {billing.isError ? (
        <ErrorState error={billing.error} onRetry={() => void billing.refetch()} />
      ) : (
        <div className="mb-8 grid gap-4 md:grid-cols-3">
          <Card>
            <CardHeader>
              <CardTitle>Balance</CardTitle>
            </CardHeader>
            <CardContent className="flex flex-wrap items-center justify-between gap-3">
              {billing.data ? (
                <>
                  <p className="text-2xl font-semibold" data-testid="balance">
                    {money(billing.data.balance_cents)}
                  </p>
                  <AddCreditDialog mode={billing.data.payment.mode} />
                </>
              ) : (
                <Skeleton className="h-8 w-32" />
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Monthly limit</CardTitle>
            </CardHeader>
            <CardContent>
              {billing.data ? (
                <p className="text-2xl font-semibold">
                  {money(billing.data.month_spend_cents)} <span className="text-sm font-normal text-muted-foreground">spent of {money(billing.data.monthly_limit_cents)}</span>
                </p>
              ) : (
                <Skeleton className="h-8 w-40" />
              )}
            </CardContent>
          </Card>
          <Card className="md:col-span-3">
            <CardHeader>
              <CardTitle>Auto-recharge</CardTitle>
            </CardHeader>
            <CardContent>
              {billing.data ? <AutoRechargeForm billing={billing.data} /> : <Skeleton className="h-8 w-full" />}
            </CardContent>
          </Card>
          {billing.data && billing.data.expiring_credits.length > 0 ? (
            <Card className="md:col-span-3">
              <CardHeader>
                <CardTitle>Credits with an expiry</CardTitle>
              </CardHeader>
              <CardContent>
                <ul className="flex flex-col gap-1 text-sm">
                  {billing.data.expiring_credits.map((c) => (
                    <li key={c.id}>
                      {money(c.amount_cents)} ({c.type}, {dateTime(c.created_at)}) expires {dateTime(c.expires_at)}
                    </li>
                  ))}
                </ul>
              </CardContent>
            </Card>
          ) : null}
        </div>
      )}
      <Receipts />
      <section aria-labelledby="transactions-heading">
        <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
          <h2 id="transactions-heading" className="text-lg font-semibold">
            Transactions
          </h2>
          <div className="grid w-48 gap-1.5">
            <Label htmlFor="transaction-type">Type</Label>
            <Select
              id="transaction-type"
              label="Transaction type"
              value={type}
              onValueChange={(v) => setType(v as TransactionType | 'all')}
              options={[{ value: 'all', label: 'All types' }, ...TYPES.map((t) => ({ value: t, label: t }))]}
            />
          </div>
        </div>
        <QueryTable
          query={transactions}
          loadingLabel="Loading transactions"
          empty={<EmptyState title="No transactions">Credits, charges, refunds, recharges and expiries appear here.</EmptyState>}
          pages={pages}
          label="Transactions"
          columns={columns}
          rowKey={(t) => t.id}
        />
      </section>
    </>
  );
}
