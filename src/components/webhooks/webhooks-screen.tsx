'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { RelativeTime } from '@/components/ui/relative-time';
import { TruncatedText } from '@/components/ui/truncated-text';
import { useHydrated } from '@/components/ui/use-hydrated';
import { CopyButton } from '@/components/ui/copy-button';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { createWebhookEndpointInput } from '@/shared/webhooks/webhook-inputs';
import { eventTypesForMode } from '@/shared/webhooks/event-types';
import { apiErrorOf, useTRPC, type ConsoleOutputs } from '@/console-client/trpc';
import { useScope, useScopeInput } from '@/console-client/scope';
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
          <TruncatedText text={row.original.url} label={`endpoint URL ${row.original.url}`} maxWidth="22rem">
            <Link href={`${scope.base}/webhooks/${row.original.id}`} className="font-medium underline-offset-4 hover:underline">
              {row.original.url}
            </Link>
          </TruncatedText>
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
    { id: 'created_at', header: 'Created', cell: ({ row }) => <RelativeTime seconds={row.original.created_at} /> },
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
      <LocalDevelopmentNote />
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

/**
 * Endpoints must be public https on 443, which a laptop cannot give: `listen` streams the
 * test-mode events over the API key's event stream and POSTs each to a local URL, signed.
 */
function LocalDevelopmentNote() {
  const hydrated = useHydrated();
  const base = hydrated ? window.location.origin : '';
  const command = `npx @roomtone/sdk listen --base-url ${base} --forward-to http://localhost:4000/hooks`;
  return (
    <section aria-labelledby="listen-heading" className="mt-6 flex flex-col gap-2 rounded-lg border p-4 text-sm">
      <h2 id="listen-heading" className="font-semibold">
        Receiving events on your laptop
      </h2>
      <p className="text-muted-foreground">
        An endpoint must be a public https URL on port 443. While you develop, run <code>listen</code> instead, with a test key in <code>ROOMTONE_API_KEY</code>: it receives this organization&apos;s
        test-mode events and forwards each one, signed, to your local receiver.
      </p>
      <div className="flex min-w-0 items-center gap-2">
        <pre className="min-w-0 flex-1 overflow-x-auto rounded bg-muted p-2 text-xs" tabIndex={0} aria-label="The listen command">
          {command}
        </pre>
        <CopyButton text={command} label="Copy command" />
      </div>
    </section>
  );
}
