'use client';
import * as React from 'react';
import Link from 'next/link';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Plus } from 'lucide-react';
import { createWebhookEndpointInput } from '@/server/trpc/webhook-inputs';
import { eventTypesForMode } from '@/server/webhooks/event-types';
import { apiErrorOf, useTRPC, type ConsoleOutputs } from '@/app-client/trpc';
import { useScope, useScopeInput } from '@/app-client/scope';
import { dateTime } from '@/app-client/format';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormError, TextField } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { SecretOnce } from '@/components/ui/secret-once';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { EndpointStatus } from './endpoint-status';
import { VerificationSnippet } from './verification-snippet';

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
      {endpoints.isPending ? (
        <LoadingRows label="Loading endpoints" />
      ) : endpoints.isError ? (
        <ErrorState error={endpoints.error} onRetry={() => void endpoints.refetch()} />
      ) : endpoints.data.data.length === 0 ? (
        <EmptyState title={`No ${scope.mode} endpoints yet`}>Add the https URL of your receiver to get generation results as they finish, without polling.</EmptyState>
      ) : (
        <DataTable label="Webhook endpoints" columns={columns} data={endpoints.data.data} rowKey={(e) => e.id} />
      )}
      <section className="mt-10 flex flex-col gap-3" aria-labelledby="verify-heading">
        <h2 id="verify-heading" className="text-lg font-semibold">
          Verify deliveries in your receiver
        </h2>
        <VerificationSnippet />
      </section>
    </>
  );
}

function CreateEndpointDialog({ onCreated }: { onCreated: () => void }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const types = eventTypesForMode(input.mode);
  const [open, setOpen] = React.useState(false);
  const [secret, setSecret] = React.useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(createWebhookEndpointInput), defaultValues: { url: '', events: [...types], description: '' } });
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: (created) => {
        setSecret(created.secret);
        onCreated();
      },
      onError: (error) => {
        // The service names the field it refuses (url, events, description): show it there.
        const apiError = apiErrorOf(error);
        if (apiError?.param === 'url' || apiError?.param === 'events' || apiError?.param === 'description') {
          form.setError(apiError.param, { message: apiError.message });
        }
      },
    }),
  );
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setSecret(null);
      create.reset();
      form.reset();
    }
  };
  const fieldError = apiErrorOf(create.error)?.param;
  return (
    <Dialog open={open} onOpenChange={close}>
      <Button onClick={() => setOpen(true)}>
        <Plus aria-hidden /> Add endpoint
      </Button>
      <DialogContent>
        {secret ? (
          <>
            <DialogHeader>
              <DialogTitle>Endpoint added</DialogTitle>
              <DialogDescription>Give this signing secret to your receiver: it verifies every delivery with it.</DialogDescription>
            </DialogHeader>
            <SecretOnce
              secret={secret}
              label="Signing secret"
              testId="new-signing-secret"
              warning="This is the only time the signing secret is shown. If you lose it, rotate the endpoint's secret."
            />
            <DialogFooter>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={form.handleSubmit((values) => create.mutate({ ...input, ...values }))} className="flex flex-col gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>Add a {input.mode} endpoint</DialogTitle>
              <DialogDescription>Roomtone POSTs each event to this URL (https, port 443, a public host).</DialogDescription>
            </DialogHeader>
            <FormError message={create.error && !fieldError ? create.error.message : null} />
            <TextField control={form.control} name="url" label="Endpoint URL" placeholder="https://example.com/hooks/roomtone" inputMode="url" />
            <Controller
              control={form.control}
              name="events"
              render={({ field, fieldState }) => (
                <fieldset className="flex flex-col gap-2" aria-describedby={fieldState.error ? 'events-error' : undefined}>
                  <legend className="mb-1 text-sm font-medium">Events to send</legend>
                  {types.map((type) => {
                    const id = `event-${type}`;
                    return (
                      <div key={type} className="flex items-center gap-2">
                        <Checkbox
                          id={id}
                          checked={field.value.includes(type)}
                          onCheckedChange={(v) => field.onChange(v === true ? [...field.value, type] : field.value.filter((t) => t !== type))}
                        />
                        <Label htmlFor={id} className="font-mono font-normal">
                          {type}
                        </Label>
                      </div>
                    );
                  })}
                  {fieldState.error ? (
                    <p id="events-error" role="alert" className="text-xs font-medium text-destructive">
                      {fieldState.error.message ?? 'Follow at least one event type.'}
                    </p>
                  ) : null}
                </fieldset>
              )}
            />
            <TextField control={form.control} name="description" label="Description (optional)" placeholder="e.g. production receiver" />
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={create.isPending}>
                Add endpoint
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
