'use client';
import * as React from 'react';
import Link from 'next/link';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { createWebhookEndpointInput } from '@/shared/webhooks/webhook-inputs';
import { eventTypesForMode } from '@/shared/webhooks/event-types';
import { apiErrorOf, useTRPC, type ConsoleOutputs } from '@/console-client/trpc';
import { useScope, useScopeInput } from '@/console-client/scope';
import { dateTime } from '@/console-client/format';
import { Badge } from '@/components/ui/badge';
import { CreateWithSecretDialog } from '@/components/ui/create-with-secret-dialog';
import { type Column } from '@/components/ui/data-table';
import { CheckboxGroupField, FormError, TextField } from '@/components/ui/form';
import { PageHeader } from '@/components/ui/page-header';
import { QueryTable } from '@/components/ui/query-table';
import { EmptyState } from '@/components/ui/states';
import { EndpointStatus } from './endpoint-status';
import { VerificationSection } from './verification-snippet';

type EndpointRow = ConsoleOutputs['webhooks']['list']['data'][number];

/** "97 % (34 of 35)", or "no attempts". */
export function successRateText(rate: EndpointRow['success_rate_24h']): string {
  if (rate.rate === null) return 'No attempts';
  return `${Math.round(rate.rate * 1000) / 10} % (${rate.succeeded} of ${rate.attempts})`;
}

/** Webhook endpoints of the current mode (owners and admins): list, add; each opens its log. */
export function WebhooksScreen() {
  const trpc = useTRPC();
  const scope = useScope();
  const input = useScopeInput();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions(input));
  const queryClient = useQueryClient();

  const columns: Column<EndpointRow>[] = [
    {
      id: 'url',
      header: 'Endpoint',
      cell: ({ row }) => (
        <div className="flex flex-col">
          <Link href={`${scope.base}/webhooks/${row.original.id}`} className="font-medium break-all underline-offset-4 hover:underline">
            {row.original.url}
          </Link>
          {row.original.description ? <span className="text-xs text-muted-foreground">{row.original.description}</span> : null}
        </div>
      ),
    },
    { id: 'status', header: 'Status', cell: ({ row }) => <EndpointStatus endpoint={row.original} /> },
    {
      id: 'events',
      header: 'Events',
      cell: ({ row }) => (
        <div className="flex flex-wrap gap-1">
          {row.original.enabled_events.map((t) => (
            <Badge key={t} variant="secondary" className="font-mono">
              {t}
            </Badge>
          ))}
        </div>
      ),
    },
    { id: 'rate', header: 'Success, last 24 h', cell: ({ row }) => <span className="whitespace-nowrap" data-testid="success-rate">{successRateText(row.original.success_rate_24h)}</span> },
    { id: 'created_at', header: 'Created', cell: ({ row }) => <span className="whitespace-nowrap">{dateTime(row.original.created_at)}</span> },
  ];

  return (
    <>
      <PageHeader
        title="Webhooks"
        description={`Endpoints that receive ${scope.mode}-mode events, signed with Standard Webhooks. At most 20 per organization, both modes together.`}
        actions={<CreateEndpointDialog onCreated={() => void queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() })} />}
      />
      <QueryTable
        query={endpoints}
        loadingLabel="Loading endpoints"
        empty={<EmptyState title={`No ${scope.mode} endpoints yet`}>Add the https URL of your receiver to get generation results as they finish, without polling.</EmptyState>}
        label="Webhook endpoints"
        columns={columns}
        rowKey={(e) => e.id}
      />
      <VerificationSection />
    </>
  );
}

function CreateEndpointDialog({ onCreated }: { onCreated: () => void }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const types = eventTypesForMode(input.mode);
  const form = useForm({ resolver: zodResolver(createWebhookEndpointInput), defaultValues: { url: '', events: [...types], description: '' } });
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: onCreated,
      onError: (error) => {
        // The service names the field it refuses (url, events, description): show it there.
        const apiError = apiErrorOf(error);
        if (apiError?.param === 'url' || apiError?.param === 'events' || apiError?.param === 'description') {
          form.setError(apiError.param, { message: apiError.message });
        }
      },
    }),
  );
  const fieldError = apiErrorOf(create.error)?.param;
  return (
    <CreateWithSecretDialog
      label="Add endpoint"
      title={`Add a ${input.mode} endpoint`}
      description="Roomtone POSTs each event to this URL (https, port 443, a public host)."
      onSubmit={form.handleSubmit((values) => create.mutate({ ...input, ...values }))}
      mutation={create}
      form={form}
      shown={{
        title: 'Endpoint added',
        description: 'Give this signing secret to your receiver: it verifies every delivery with it.',
        label: 'Signing secret',
        testId: 'new-signing-secret',
        warning: "This is the only time the signing secret is shown. If you lose it, rotate the endpoint's secret.",
      }}
    >
      <FormError message={create.error && !fieldError ? create.error.message : null} />
      <TextField control={form.control} name="url" label="Endpoint URL" placeholder="https://example.com/hooks/roomtone" inputMode="url" />
      <CheckboxGroupField control={form.control} name="events" legend="Events to send" options={types} idPrefix="event" />
      <TextField control={form.control} name="description" label="Description (optional)" placeholder="e.g. production receiver" />
    </CreateWithSecretDialog>
  );
}
