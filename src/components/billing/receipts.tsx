'use client';
import * as React from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTRPC, type ConsoleOutputs } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';
import { money } from '@/console-client/format';
import { Badge } from '@/components/ui/badge';
import { useCursorPages, type Column } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { EmptyState } from '@/components/ui/states';
import { RelativeTime } from '@/components/ui/relative-time';

type Purchase = ConsoleOutputs['billing']['purchases']['data'][number];

const STATUS: Record<Purchase['status'], { label: string; variant: 'success' | 'secondary' | 'outline' }> = {
  paid: { label: 'paid', variant: 'success' },
  pending: { label: 'awaiting payment', variant: 'secondary' },
  expired: { label: 'not paid', variant: 'outline' },
  rejected: { label: 'rejected by the operator', variant: 'outline' },
};

/** A manual-provider request: approved by the operator rather than paid. */
function statusOf(p: Purchase): { label: string; variant: 'success' | 'secondary' | 'outline' } {
  if (p.provider !== 'manual') return STATUS[p.status];
  if (p.status === 'pending') return { label: 'awaiting the operator', variant: 'secondary' };
  if (p.status === 'paid') return { label: 'approved', variant: 'success' };
  return STATUS[p.status];
}

/** Credit purchases (receipts): the provider's receipt page once paid; pending ones too, so a buyer sees where theirs is. */
export function Receipts() {
  const trpc = useTRPC();
  const input = useScopeInput();
  const pages = useCursorPages(`${input.organizationId}/receipts`);
  const purchases = useQuery(trpc.billing.purchases.queryOptions({ ...input, cursor: pages.cursor }));
  const columns: Column<Purchase>[] = [
    { id: 'date', header: 'Date', cell: ({ row }) => <RelativeTime seconds={row.original.completed_at ?? row.original.created_at} /> },
    { id: 'amount', header: 'Amount', cell: ({ row }) => <span className="whitespace-nowrap tabular-nums">{money(row.original.amount_cents)}</span> },
    {
      id: 'status',
      header: 'Status',
      cell: ({ row }) => <Badge variant={statusOf(row.original).variant}>{statusOf(row.original).label}</Badge>,
    },
    { id: 'reference', header: 'Payment', cell: ({ row }) => <code className="text-xs break-all">{row.original.payment_reference ?? '—'}</code> },
    {
      id: 'receipt',
      header: 'Receipt',
      cell: ({ row }) =>
        row.original.receipt_url ? (
          <a className="underline underline-offset-2" href={row.original.receipt_url} target="_blank" rel="noreferrer noopener">
            Receipt<span className="sr-only"> for {money(row.original.amount_cents)}</span>
          </a>
        ) : row.original.provider === 'manual' && row.original.status === 'paid' ? (
          <span className="text-muted-foreground">Approved by the operator, no payment</span>
        ) : (
          '—'
        ),
    },
  ];
  return (
    <section aria-labelledby="receipts-heading" className="mb-8">
      <h2 id="receipts-heading" className="mb-3 text-lg font-semibold">
        Purchases and receipts
      </h2>
      <QueryTable
        query={purchases}
        loadingLabel="Loading purchases"
        empty={<EmptyState title="No purchases yet">Credit you add appears here with its receipt.</EmptyState>}
        pages={pages}
        label="Purchases and receipts"
        columns={columns}
        rowKey={(p) => p.id}
      />
    </section>
  );
}
