'use client';
import * as React from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { createKeyInput } from '@/shared/console/console-inputs';
import { PERMISSION_DESCRIPTIONS, PERMISSIONS } from '@/shared/keys/permissions';
import { useTRPC, type ConsoleOutputs } from '@/console-client/trpc';
import { useScope, useScopeInput } from '@/console-client/scope';
import { Badge } from '@/components/ui/badge';
import { Checkbox } from '@/components/ui/checkbox';
import { CreateWithSecretDialog } from '@/components/ui/create-with-secret-dialog';
import { useCursorPages, type Column } from '@/components/ui/data-table';
import { CheckboxGroupField, FormError, TextField } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { QueryTable } from '@/components/ui/query-table';
import { EmptyState } from '@/components/ui/states';
import { RelativeTime } from '@/components/ui/relative-time';
import { toast } from '@/components/ui/toaster';
import { KeyExpiry, KeyExpiryField } from './key-edits';
import { KeyFencesSummary } from './key-fences';
import { KeyActionDialog, KeyActionsMenu, type KeyAction } from './key-actions';

type KeyRow = ConsoleOutputs['keys']['list']['data'][number];

export function KeysScreen() {
  const trpc = useTRPC();
  const scope = useScope();
  const input = useScopeInput();
  const [includeRevoked, setIncludeRevoked] = React.useState(false);
  const [action, setAction] = React.useState<{ apiKey: KeyRow; which: KeyAction } | null>(null);
  const pages = useCursorPages(`${input.organizationId}/${input.mode}/${includeRevoked}`);
  const keys = useQuery(trpc.keys.list.queryOptions({ ...input, includeRevoked, cursor: pages.cursor }));
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.keys.list.queryKey() });
  const revoke = useMutation(
    trpc.keys.revoke.mutationOptions({
      onSuccess: (_, variables) => {
        const name = keys.data?.data.find((k) => k.id === variables.keyId)?.name;
        toast.success(`Key “${name ?? variables.keyId}” revoked. Requests with it now get 401.`);
        void invalidate();
      },
      onError: (error) => toast.error(error.message),
    }),
  );

  const menu = (k: KeyRow) => <KeyActionsMenu apiKey={k} onAction={(which) => setAction({ apiKey: k, which })} />;
  // Who and when in one column, a roll's old secret on two lines, a far expiry wrapped and the
  // actions behind one small button: at 1360 px the whole table fits its card. Phones get cards.
  const columns: Column<KeyRow>[] = [
    { id: 'name', header: 'Name', cell: ({ row }) => <KeyName apiKey={row.original} /> },
    { id: 'key', header: 'Key', cell: ({ row }) => <KeySecretPrefix apiKey={row.original} /> },
    { id: 'permissions', header: 'Permissions and fences', cell: ({ row }) => <KeyPermissions apiKey={row.original} /> },
    { id: 'created_at', header: 'Created', cell: ({ row }) => <KeyCreated apiKey={row.original} /> },
    { id: 'expires_at', header: 'Expires', cell: ({ row }) => <KeyExpiry expiresAt={row.original.expires_at} expired={row.original.expired} /> },
    { id: 'last_used_at', header: 'Last used', cell: ({ row }) => <KeyLastUsed apiKey={row.original} /> },
    { id: 'actions', header: () => <span className="sr-only">Actions</span>, cell: ({ row }) => menu(row.original) },
  ];

  return (
    <>
      <PageHeader
        title="API keys"
        description={`Keys for ${scope.mode} mode (${scope.mode === 'test' ? 'rt_test_' : 'rt_live_'}…). Owners and admins manage every key; developers the keys they created.`}
        actions={<CreateKeyDialog onCreated={() => void invalidate()} />}
      />
      <div className="mb-3 flex items-center gap-2">
        <Checkbox id="include-revoked" checked={includeRevoked} onCheckedChange={(v) => setIncludeRevoked(v === true)} />
        <Label htmlFor="include-revoked">Show revoked keys</Label>
      </div>
      <QueryTable
        query={keys}
        loadingLabel="Loading keys"
        empty={<EmptyState title={`No ${scope.mode} keys yet`}>Create a key to call the API from your code.</EmptyState>}
        pages={pages}
        label="API keys"
        columns={columns}
        rowKey={(k) => k.id}
        card={(k) => <KeyCard apiKey={k} menu={menu(k)} />}
        // Revoked keys are dimmed: muted text on a muted row (opacity would fail contrast).
        rowClassName={(k) => (k.revoked_at ? 'bg-muted/40 text-muted-foreground' : undefined)}
      />
      {action ? (
        <KeyActionDialog
          apiKey={action.apiKey}
          action={action.which}
          onClose={() => setAction(null)}
          onChanged={() => void invalidate()}
          onRevoke={() => revoke.mutate({ ...input, keyId: action.apiKey.id })}
        />
      ) : null}
    </>
  );
}

function KeyName({ apiKey }: { apiKey: KeyRow }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <span className="font-medium break-words">{apiKey.name}</span>
      {apiKey.revoked_at ? (
        <span className="text-xs whitespace-nowrap" data-testid="key-revoked">
          Revoked <RelativeTime seconds={apiKey.revoked_at} />
        </span>
      ) : null}
    </div>
  );
}

/** The secret's prefix, and the one a roll replaced while it still works. */
function KeySecretPrefix({ apiKey }: { apiKey: KeyRow }) {
  return (
    <div className="flex flex-col gap-0.5">
      <code className="text-xs">{apiKey.prefix}</code>
      {apiKey.previous_prefix && apiKey.previous_secret_expires_at ? (
        <span className="flex flex-col text-xs text-muted-foreground" data-testid="key-previous-secret">
          <span className="whitespace-nowrap">
            old <code>{apiKey.previous_prefix}</code>
          </span>
          <span className="whitespace-nowrap">
            until <RelativeTime seconds={apiKey.previous_secret_expires_at} />
          </span>
        </span>
      ) : null}
    </div>
  );
}

function KeyPermissions({ apiKey }: { apiKey: KeyRow }) {
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap gap-1">
        {apiKey.permissions.map((p) => (
          <Badge key={p} variant="secondary">
            {p}
          </Badge>
        ))}
      </div>
      <KeyFencesSummary fences={apiKey} />
    </div>
  );
}

function KeyCreated({ apiKey }: { apiKey: KeyRow }) {
  return (
    <div className="flex min-w-0 flex-col">
      <RelativeTime seconds={apiKey.created_at} />
      <span className="max-w-[11rem] truncate text-xs text-muted-foreground" title={apiKey.created_by ?? undefined}>
        by {apiKey.created_by ?? '—'}
      </span>
    </div>
  );
}

function KeyLastUsed({ apiKey }: { apiKey: KeyRow }) {
  return (
    <div className="flex flex-col">
      <RelativeTime seconds={apiKey.last_used_at} empty="Never" />
      {apiKey.last_used_ip ? <span className="text-xs break-all text-muted-foreground">from {apiKey.last_used_ip}</span> : null}
    </div>
  );
}

/** A key on a phone: name, secret and actions first, then permissions, then the times. */
function KeyCard({ apiKey, menu }: { apiKey: KeyRow; menu: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="key-card">
      <div className="flex items-start justify-between gap-2">
        <div className="flex min-w-0 flex-col gap-1">
          <KeyName apiKey={apiKey} />
          <KeySecretPrefix apiKey={apiKey} />
        </div>
        {menu}
      </div>
      <KeyPermissions apiKey={apiKey} />
      {/* Three narrow columns: a time wraps here (before hydration it is the whole UTC time). */}
      <dl className="grid grid-cols-3 gap-2 text-xs [&_time]:whitespace-normal">
        <div className="min-w-0">
          <dt className="text-muted-foreground">Created</dt>
          <dd>
            <KeyCreated apiKey={apiKey} />
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-muted-foreground">Expires</dt>
          <dd>
            <KeyExpiry expiresAt={apiKey.expires_at} expired={apiKey.expired} />
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-muted-foreground">Last used</dt>
          <dd>
            <KeyLastUsed apiKey={apiKey} />
          </dd>
        </div>
      </dl>
    </div>
  );
}

function CreateKeyDialog({ onCreated }: { onCreated: () => void }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const form = useForm({ resolver: zodResolver(createKeyInput), defaultValues: { name: '', permissions: [...PERMISSIONS], expiresInDays: undefined as number | undefined } });
  const create = useMutation(trpc.keys.create.mutationOptions({ onSuccess: onCreated }));
  return (
    <CreateWithSecretDialog
      label="Create key"
      title={`Create a ${input.mode} key`}
      description="Give it a name you will recognise in the log, and only the permissions it needs."
      onSubmit={form.handleSubmit((values) => create.mutate({ ...input, ...values }))}
      mutation={create}
      form={form}
      shown={{
        title: `Your new ${input.mode} key`,
        description: 'Copy it now and keep it somewhere safe.',
        label: 'Secret key',
        testId: 'new-key-secret',
        warning: 'This is the only time the secret is shown. We store only its hash: if you lose it, revoke the key and create another.',
      }}
    >
      <FormError message={create.error?.message} />
      <TextField control={form.control} name="name" label="Name" placeholder="e.g. production backend" />
      <CheckboxGroupField control={form.control} name="permissions" legend="Permissions" options={PERMISSIONS} descriptions={PERMISSION_DESCRIPTIONS} idPrefix="permission" />
      <KeyExpiryField control={form.control} name="expiresInDays" />
    </CreateWithSecretDialog>
  );
}
