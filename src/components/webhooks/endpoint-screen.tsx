'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { useConsoleRouter } from '@/components/shell/navigation-progress';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, RotateCw, Send } from 'lucide-react';
import { useTRPC, type ConsoleOutputs } from '@/console-client/trpc';
import { useScope, useScopeInput } from '@/console-client/scope';
import { dateTime } from '@/console-client/format';
import { webhookEventTypeSchema } from '@/shared/webhooks/webhook-inputs';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { useCursorPages, type Column } from '@/components/ui/data-table';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormError } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { SecretOnce, useSecretCloseGuard } from '@/components/ui/secret-once';
import { Select } from '@/components/ui/select';
import { Sheet } from '@/components/ui/sheet';
import { QueryTable } from '@/components/ui/query-table';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { toast } from '@/components/ui/toaster';
import { MailDestination } from '@/components/mail/mail-destination';
import { EndpointStatus } from './endpoint-status';
import { VerificationSection } from './verification-snippet';
import { DeliveryPayload, EditEndpointDialog } from './edit-endpoint';
import { RelativeTime } from '@/components/ui/relative-time';

type Endpoint = ConsoleOutputs['webhooks']['get'];
type Delivery = ConsoleOutputs['webhooks']['deliveries']['data'][number];

const STATUS_VARIANT: Record<string, 'success' | 'destructive' | 'warning' | 'outline'> = { succeeded: 'success', failed: 'destructive', pending: 'warning', canceled: 'outline' };

/** A delivery's state in words: a pending one that has already failed says so, and when it is tried again. */
export function deliveryStatusText(d: { status: string; attempts: number; next_attempt_at: number | null }): string {
  if (d.status === 'pending' && d.attempts > 0) return d.next_attempt_at ? `failed, retrying at ${dateTime(d.next_attempt_at)}` : 'failed, retrying';
  if (d.status === 'pending') return 'pending, not attempted yet';
  return d.status;
}

function lastAttempt(d: Delivery) {
  return d.attempt_log[d.attempt_log.length - 1];
}

/** One endpoint: its status and actions, Send a test, and its delivery log (30 days). */
export function EndpointScreen({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  const scope = useScope();
  const input = useScopeInput();
  const endpoint = useQuery(trpc.webhooks.get.queryOptions({ ...input, endpointId }));
  if (endpoint.isPending) return <LoadingRows label="Loading the endpoint" />;
  if (endpoint.isError) {
    return (
      <>
        <BackLink base={scope.base} />
        <ErrorState error={endpoint.error} onRetry={() => void endpoint.refetch()} />
      </>
    );
  }
  const e = endpoint.data;
  return (
    <>
      <BackLink base={scope.base} />
      <PageHeader title="Webhook endpoint" description={<span className="font-mono break-all">{e.url}</span>} actions={<EndpointActions endpoint={e} />} />
      <dl className="mb-8 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <dt className="text-muted-foreground">Status</dt>
          <dd data-testid="endpoint-status">
            <EndpointStatus endpoint={e} />
          </dd>
          <dd className="mt-1 text-xs text-muted-foreground">If it is disabled automatically (410 Gone, or 72 hours of failures), owners and admins are e-mailed.</dd>
          <dd>
            <MailDestination kind="notification" className="mt-1" />
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Events</dt>
          <dd className="font-mono text-xs break-words">{e.enabled_events.join(', ')}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Description</dt>
          <dd className="break-words">{e.description ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Id · created</dt>
          <dd>
            <code className="text-xs">{e.id}</code> · {dateTime(e.created_at)}
          </dd>
        </div>
        {e.previous_secret_expires_at ? (
          <div className="sm:col-span-2 lg:col-span-4">
            <dt className="text-muted-foreground">Secret rotation</dt>
            <dd>Deliveries carry the new and the previous signature until {dateTime(e.previous_secret_expires_at)}.</dd>
          </div>
        ) : null}
      </dl>
      <SendTest endpoint={e} />
      <DeliveryLog endpoint={e} />
      <VerificationSection />
    </>
  );
}

function BackLink({ base }: { base: string }) {
  return (
    <Link href={`${base}/webhooks`} className="mb-4 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeft className="size-4" aria-hidden /> All endpoints
    </Link>
  );
}

function useInvalidateWebhooks() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
}

function EndpointActions({ endpoint }: { endpoint: Endpoint }) {
  const trpc = useTRPC();
  const scope = useScope();
  const input = useScopeInput();
  const router = useConsoleRouter();
  const invalidate = useInvalidateWebhooks();
  const onError = (error: { message: string }) => toast.error(error.message);
  const disable = useMutation(trpc.webhooks.disable.mutationOptions({ onSuccess: () => (toast.success('Endpoint disabled. Its planned deliveries were canceled.'), void invalidate()), onError }));
  const enable = useMutation(trpc.webhooks.enable.mutationOptions({ onSuccess: () => (toast.success('Endpoint enabled. It receives the events produced from now on.'), void invalidate()), onError }));
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: () => {
        toast.success('Endpoint deleted with its delivery log.');
        void invalidate();
        router.push(`${scope.base}/webhooks`);
      },
      onError,
    }),
  );
  const ids = { ...input, endpointId: endpoint.id };
  return (
    <>
      <EditEndpointDialog endpoint={endpoint} />
      <RotateDialog endpoint={endpoint} />
      {endpoint.status === 'active' ? (
        <ConfirmDialog
          trigger={<Button variant="outline">Disable</Button>}
          title="Disable this endpoint?"
          description="Nothing is sent to it while it is disabled, and its planned retries are canceled. When you enable it again it receives only the events produced from then on."
          confirmLabel="Disable endpoint"
          onConfirm={() => disable.mutate(ids)}
        />
      ) : (
        <Button variant="outline" onClick={() => enable.mutate(ids)} disabled={enable.isPending}>
          Enable
        </Button>
      )}
      <ConfirmDialog
        trigger={<Button variant="destructive">Delete</Button>}
        title="Delete this endpoint?"
        description="The endpoint and its delivery log are removed, and nothing more is sent to it. This cannot be undone."
        confirmLabel="Delete endpoint"
        onConfirm={() => remove.mutate(ids)}
      />
    </>
  );
}

function RotateDialog({ endpoint }: { endpoint: Endpoint }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const invalidate = useInvalidateWebhooks();
  const [open, setOpen] = React.useState(false);
  const rotate = useMutation(trpc.webhooks.rotate.mutationOptions({ onSuccess: () => void invalidate() }));
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) rotate.reset();
  };
  const guard = useSecretCloseGuard(Boolean(rotate.data), () => close(false));
  return (
    <Dialog open={open} onOpenChange={close}>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <RotateCw aria-hidden /> Rotate secret
      </Button>
      <DialogContent {...guard.contentProps}>
        {guard.confirmation}
        <DialogHeader>
          <DialogTitle>{rotate.data ? 'New signing secret' : 'Rotate the signing secret?'}</DialogTitle>
          <DialogDescription>
            The new secret signs every delivery from now on. For 24 hours each delivery also carries a signature made with the current secret (both signatures in
            the <code>webhook-signature</code> header), so your receiver keeps verifying while you deploy the new one. A second rotation within those 24 hours
            stops the oldest secret at once.
          </DialogDescription>
        </DialogHeader>
        {rotate.data ? (
          <SecretOnce secret={rotate.data.secret} label="New signing secret" testId="rotated-signing-secret" warning="This is the only time the new secret is shown." />
        ) : (
          <FormError message={rotate.error?.message} />
        )}
        <DialogFooter>
          {rotate.data ? (
            <Button onClick={() => close(false)}>Done</Button>
          ) : (
            <>
              <Button variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button onClick={() => rotate.mutate({ ...input, endpointId: endpoint.id })} disabled={rotate.isPending}>
                Rotate secret
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function SendTest({ endpoint }: { endpoint: Endpoint }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const invalidate = useInvalidateWebhooks();
  const [chosen, setType] = React.useState(endpoint.enabled_events[0] ?? '');
  // An edit may stop following the chosen type: the first followed one then.
  const type = endpoint.enabled_events.includes(chosen) ? chosen : (endpoint.enabled_events[0] ?? '');
  const send = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      onSuccess: (delivery) => {
        const attempt = lastAttempt(delivery);
        if (delivery.status === 'succeeded') toast.success(`Test event delivered (HTTP ${attempt?.status_code ?? '?'}).`);
        else toast.error(`Test event not accepted: ${attempt?.error ?? `HTTP ${attempt?.status_code ?? '?'}`}.`);
        void invalidate();
      },
      onError: (error) => toast.error(error.message),
    }),
  );
  return (
    <section className="mb-8 flex flex-col gap-2" aria-labelledby="send-test-heading">
      <h2 id="send-test-heading" className="text-lg font-semibold">
        Send a test event
      </h2>
      <p className="text-sm text-muted-foreground">A sample event with fictitious ids and no image, sent once now and never retried.</p>
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1.5">
          <Label htmlFor="test-event-type">Event type</Label>
          <Select id="test-event-type" label="Event type" value={type} onValueChange={setType} options={endpoint.enabled_events.map((t) => ({ value: t, label: t }))} className="w-64" />
        </div>
        <Button
          onClick={() => {
            const parsed = webhookEventTypeSchema.safeParse(type);
            if (parsed.success) send.mutate({ ...input, endpointId: endpoint.id, type: parsed.data });
          }}
          disabled={send.isPending || endpoint.status !== 'active'}
        >
          <Send aria-hidden /> Send test event
        </Button>
      </div>
      {endpoint.status !== 'active' ? <p className="text-sm text-muted-foreground">Enable the endpoint to send to it.</p> : null}
    </section>
  );
}

function DeliveryLog({ endpoint }: { endpoint: Endpoint }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const invalidate = useInvalidateWebhooks();
  const [failedOnly, setFailedOnly] = React.useState(false);
  const [open, setOpen] = React.useState<Delivery | null>(null);
  const pages = useCursorPages(`${endpoint.id}/${failedOnly}`);
  const deliveries = useQuery(trpc.webhooks.deliveries.queryOptions({ ...input, endpointId: endpoint.id, failedOnly, cursor: pages.cursor }));
  const resend = useMutation(
    trpc.webhooks.resend.mutationOptions({
      onSuccess: (delivery) => {
        if (delivery.status === 'succeeded') toast.success('Delivery resent.');
        else toast.error(`Resent, not accepted: ${lastAttempt(delivery)?.error ?? `HTTP ${delivery.last_status_code ?? '?'}`}.`);
        void invalidate();
      },
      onError: (error) => toast.error(error.message),
    }),
  );
  const columns: Column<Delivery>[] = [
    { id: 'time', header: 'Time', cell: ({ row }) => <RelativeTime seconds={row.original.created_at} /> },
    {
      id: 'event',
      header: 'Event',
      cell: ({ row }) => (
        <div className="flex flex-col">
          <span className="font-mono text-xs">{row.original.event.type}</span>
          <span className="font-mono text-xs text-muted-foreground">{row.original.event.id}</span>
        </div>
      ),
    },
    { id: 'kind', header: 'Kind', cell: ({ row }) => <span data-testid="delivery-kind">{row.original.kind}</span> },
    {
      id: 'status',
      header: 'Status',
      cell: ({ row }) => (
        <Badge variant={row.original.status === 'pending' && row.original.attempts > 0 ? 'destructive' : (STATUS_VARIANT[row.original.status] ?? 'outline')} data-testid="delivery-status">
          {deliveryStatusText(row.original)}
        </Badge>
      ),
    },
    {
      id: 'last',
      header: 'Last answer',
      cell: ({ row }) => {
        const a = lastAttempt(row.original);
        if (!a) return <span className="text-muted-foreground">Not attempted yet</span>;
        return (
          <span className="whitespace-nowrap">
            {a.status_code !== null ? `HTTP ${a.status_code}` : (a.error?.split(':')[0] ?? 'error')} · {a.duration_ms} ms
          </span>
        );
      },
    },
    { id: 'attempts', header: 'Attempts', cell: ({ row }) => row.original.attempts },
    { id: 'next', header: 'Next retry', cell: ({ row }) => <span className="whitespace-nowrap">{row.original.status === 'pending' ? dateTime(row.original.next_attempt_at) : '—'}</span> },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) => (
        <Button
          variant="outline"
          size="sm"
          aria-label={`Resend ${row.original.event.type} ${row.original.id}`}
          disabled={endpoint.status !== 'active' || resend.isPending}
          onClick={(event) => {
            event.stopPropagation();
            resend.mutate({ ...input, deliveryId: row.original.id });
          }}
          onKeyDown={(event) => event.stopPropagation()}
        >
          Resend
        </Button>
      ),
    },
  ];
  return (
    <section className="flex flex-col gap-3" aria-labelledby="log-heading">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="log-heading" className="text-lg font-semibold">
          Delivery log <span className="text-sm font-normal text-muted-foreground">(last 30 days)</span>
        </h2>
        <div className="flex items-center gap-2">
          <Checkbox id="failed-only" checked={failedOnly} onCheckedChange={(v) => setFailedOnly(v === true)} />
          <Label htmlFor="failed-only">Failed only</Label>
        </div>
      </div>
      <QueryTable
        query={deliveries}
        loadingLabel="Loading deliveries"
        empty={
          <EmptyState title={failedOnly ? 'No failed deliveries' : 'No deliveries yet'}>
            {failedOnly ? 'Every attempt of the last 30 days succeeded.' : 'Events the endpoint follows appear here as they are sent. Send a test event to try it.'}
          </EmptyState>
        }
        pages={pages}
        label="Deliveries"
        columns={columns}
        rowKey={(d) => d.id}
        onOpen={setOpen}
        rowLabel={(d) => `Delivery ${d.id}: ${d.event.type}, ${deliveryStatusText(d)}`}
      />
      <Sheet open={open !== null} onOpenChange={(next) => !next && setOpen(null)} title={open ? `Delivery ${open.id}` : ''} description={open ? `${open.event.type} · ${open.kind} · ${deliveryStatusText(open)}` : undefined}>
        {open ? <Attempts delivery={open} /> : null}
      </Sheet>
    </section>
  );
}

function Attempts({ delivery }: { delivery: Delivery }) {
  return (
    <div className="flex flex-col gap-4 text-sm">
      <p>
        Event <code>{delivery.event.id}</code> (the <code>webhook-id</code> header, the same on every attempt).
        {delivery.status === 'pending' && delivery.next_attempt_at ? ` Next retry ${dateTime(delivery.next_attempt_at)}.` : ''}
      </p>
      <DeliveryPayload deliveryId={delivery.id} />
      {delivery.attempt_log.length === 0 ? <p className="text-muted-foreground">Not attempted yet.</p> : null}
      <ol className="flex flex-col gap-3">
        {delivery.attempt_log.map((a) => (
          <li key={a.number} className="rounded-md border p-3" data-testid="attempt">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">Attempt {a.number}</span>
              <Badge variant={a.succeeded ? 'success' : 'destructive'}>{a.status_code !== null ? `HTTP ${a.status_code}` : 'no answer'}</Badge>
              <span className="text-muted-foreground">
                {dateTime(a.started_at)} · {a.duration_ms} ms
              </span>
            </div>
            {a.error ? <p className="mt-2 text-destructive">{a.error}</p> : null}
            {a.response_body ? (
              <pre className="mt-2 max-h-40 overflow-auto rounded bg-muted p-2 text-xs whitespace-pre-wrap" aria-label={`Response of attempt ${a.number}`} tabIndex={0}>
                {a.response_body}
              </pre>
            ) : a.status_code !== null ? (
              <p className="mt-2 text-muted-foreground">Empty response body.</p>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
