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

  const columns: Column<KeyRow>[] = [
    {
      id: 'name',
      header: 'Name',
      cell: ({ row }) => (
        <div className="flex flex-col gap-0.5">
          <span className="font-medium break-words">{row.original.name}</span>
          {row.original.revoked_at ? (
            <span className="text-xs whitespace-nowrap" data-testid="key-revoked">
              Revoked <RelativeTime seconds={row.original.revoked_at} />
            </span>
          ) : null}
        </div>
      ),
    },
    {
      id: 'key',
      header: 'Key',
      cell: ({ row }) => (
        <div className="flex flex-col gap-0.5">
          <code className="text-xs">{row.original.prefix}</code>
          {row.original.previous_prefix && row.original.previous_secret_expires_at ? (
            // The secret a roll replaced, while it still works.
            <span className="flex flex-col text-xs text-muted-foreground" data-testid="key-previous-secret">
              <span className="whitespace-nowrap">
                old <code>{row.original.previous_prefix}</code>
              </span>
              <span className="whitespace-nowrap">
                until <RelativeTime seconds={row.original.previous_secret_expires_at} />
              </span>
            </span>
          ) : null}
        </div>
      ),
    },
    {
      id: 'permissions',
      header: 'Permissions and fences',
      // One column for both: with the actions, one more column overflows a laptop's card.
      cell: ({ row }) => (
        <div className="flex flex-col gap-1">
          <div className="flex flex-wrap gap-1">
            {row.original.permissions.map((p) => (
              <Badge key={p} variant="secondary">
                {p}
              </Badge>
            ))}
          </div>
          <KeyFencesSummary fences={row.original} />
        </div>
      ),
    },
    // Who and when in one column, a roll's old secret on two lines, a far expiry wrapped and the
    // actions behind one small button: at 1360 px the whole table fits its card.
    {
      id: 'created_at',
      header: 'Created',
      cell: ({ row }) => (
        <div className="flex flex-col">
          <RelativeTime seconds={row.original.created_at} />
          <span className="max-w-[11rem] truncate text-xs text-muted-foreground" title={row.original.created_by ?? undefined}>
            by {row.original.created_by ?? '—'}
          </span>
        </div>
      ),
    },
    { id: 'expires_at', header: 'Expires', cell: ({ row }) => <KeyExpiry expiresAt={row.original.expires_at} expired={row.original.expired} /> },
    {
      id: 'last_used_at',
      header: 'Last used',
      cell: ({ row }) => (
        <div className="flex flex-col">
          <RelativeTime seconds={row.original.last_used_at} empty="Never" />
          {row.original.last_used_ip ? <span className="text-xs break-all text-muted-foreground">from {row.original.last_used_ip}</span> : null}
        </div>
      ),
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) => <KeyActionsMenu apiKey={row.original} onAction={(which) => setAction({ apiKey: row.original, which })} />,
    },
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
