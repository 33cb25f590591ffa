'use client';
import * as React from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil } from 'lucide-react';
import { createWebhookEndpointInput } from '@/shared/webhooks/webhook-inputs';
import { eventTypesForMode } from '@/shared/webhooks/event-types';
import { apiErrorOf, useTRPC, type ConsoleOutputs } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { CheckboxGroupField, FormError, TextField } from '@/components/ui/form';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/toaster';

type Endpoint = ConsoleOutputs['webhooks']['get'];

/** Edit an endpoint's URL, events and description; its secret, status and log stay. */
export function EditEndpointDialog({ endpoint }: { endpoint: Endpoint }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const queryClient = useQueryClient();
  const [open, setOpen] = React.useState(false);
  const types = eventTypesForMode(input.mode);
  const values = React.useMemo(() => ({ url: endpoint.url, events: endpoint.enabled_events as (typeof types)[number][], description: endpoint.description ?? '' }), [endpoint]);
  const form = useForm({ resolver: zodResolver(createWebhookEndpointInput), defaultValues: values });
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: () => {
        toast.success('Endpoint saved. Events produced from now on follow the new settings.');
        setOpen(false);
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
      },
      onError: (error) => {
        const apiError = apiErrorOf(error);
        if (apiError?.param === 'url' || apiError?.param === 'events' || apiError?.param === 'description') form.setError(apiError.param, { message: apiError.message });
      },
    }),
  );
  const fieldError = apiErrorOf(update.error)?.param;
  const change = (next: boolean) => {
    setOpen(next);
    if (next) {
      form.reset(values);
      update.reset();
    }
  };
  return (
    <Dialog open={open} onOpenChange={change}>
      <Button variant="outline" onClick={() => change(true)}>
        <Pencil aria-hidden /> Edit
      </Button>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit endpoint</DialogTitle>
          <DialogDescription>The signing secret and the delivery log stay. Retries already planned go to the new URL.</DialogDescription>
        </DialogHeader>
        <form
          onSubmit={form.handleSubmit((v) => update.mutate({ ...input, endpointId: endpoint.id, url: v.url, events: v.events, description: v.description ?? '' }))}
          className="flex flex-col gap-4"
          noValidate
        >
          <FormError message={update.error && !fieldError ? update.error.message : null} />
          <TextField control={form.control} name="url" label="Endpoint URL" inputMode="url" />
          <CheckboxGroupField control={form.control} name="events" legend="Events to send" options={types} idPrefix="edit-event" />
          <TextField control={form.control} name="description" label="Description (optional)" />
          <DialogFooter>
            <Button type="submit" disabled={update.isPending}>
              Save endpoint
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The body the delivery sends (as the next attempt would: generation events carry fresh output URLs). */
export function DeliveryPayload({ deliveryId }: { deliveryId: string }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const payload = useQuery(trpc.webhooks.payload.queryOptions({ ...input, deliveryId }));
  return (
    <section aria-label="Payload" className="flex flex-col gap-1">
      <h3 className="font-medium">Payload</h3>
      {payload.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : payload.isError ? (
        <p className="text-destructive">{payload.error.message}</p>
      ) : payload.data.payload === null ? (
        <p className="text-muted-foreground">The generation of this event has been deleted (retention): there is nothing left to send.</p>
      ) : (
        <pre className="max-h-64 overflow-auto rounded bg-muted p-2 text-xs" aria-label="Payload of the delivery" tabIndex={0} data-testid="delivery-payload">
          {payload.data.payload}
        </pre>
      )}
      <p className="text-xs text-muted-foreground">A generation event is read again at each attempt: its output URLs are signed anew every time.</p>
    </section>
  );
}
