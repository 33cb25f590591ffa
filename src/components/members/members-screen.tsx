'use client';
import * as React from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm, Controller } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { UserPlus } from 'lucide-react';
import { inviteInput } from '@/shared/console/console-inputs';
import { useTRPC, type ConsoleOutputs } from '@/console-client/trpc';
import { useScope, useScopeInput, type Role } from '@/console-client/scope';
import { dateTime } from '@/console-client/format';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { DataTable, useCursorPages, type Column } from '@/components/ui/data-table';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormError, TextField } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { QueryTable } from '@/components/ui/query-table';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { toast } from '@/components/ui/toaster';
import { InvitationLinkDialog } from './invitation-link';
import { MailDestination, useMailDelivery } from '@/components/mail/mail-destination';
import { RemovalKeysNotice } from './removal-keys-notice';
import { RelativeTime } from '@/components/ui/relative-time';

type MemberRow = ConsoleOutputs['members']['list']['data'][number];
type InvitationRow = ConsoleOutputs['members']['invitations']['data'][number];

/** Roles an actor may hand out: only an owner grants owner. */
function assignable(actor: Role): Role[] {
  return actor === 'owner' ? ['owner', 'admin', 'developer'] : ['admin', 'developer'];
}

export function MembersScreen() {
  const trpc = useTRPC();
  const scope = useScope();
  const input = useScopeInput();
  const queryClient = useQueryClient();
  const pages = useCursorPages(input.organizationId);
  const members = useQuery(trpc.members.list.queryOptions({ ...input, cursor: pages.cursor }));
  const me = useQuery(trpc.me.get.queryOptions());
  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() }), queryClient.invalidateQueries({ queryKey: trpc.members.invitations.queryKey() })]);
  // A role chosen in a row applies only once confirmed (promotion to owner above all).
  const [roleChange, setRoleChange] = React.useState<{ userId: string; email: string; from: Role; to: Role } | null>(null);
  const updateRole = useMutation(
    trpc.members.updateRole.mutationOptions({
      onSuccess: (r) => {
        toast.success(`Role changed to ${r.role}.`);
        void refresh();
      },
      onError: (error) => toast.error(error.message),
    }),
  );
  const remove = useMutation(
    trpc.members.remove.mutationOptions({
      onSuccess: (r) => {
        const keys = r.revoked_keys.length;
        toast.success(keys === 0 ? 'Member removed.' : `Member removed; ${keys === 1 ? '1 API key' : `${keys} API keys`} revoked.`);
        void refresh();
        void queryClient.invalidateQueries({ queryKey: trpc.keys.list.queryKey() });
      },
      onError: (error) => toast.error(error.message),
    }),
  );

  const columns: Column<MemberRow>[] = [
    {
      id: 'member',
      header: 'Member',
      cell: ({ row }) => (
        <div className="flex flex-col">
          <span className="font-medium">{row.original.name ?? row.original.email}</span>
          {row.original.name ? <span className="text-xs text-muted-foreground">{row.original.email}</span> : null}
        </div>
      ),
    },
    {
      id: 'role',
      header: 'Role',
      cell: ({ row }) => {
        const m = row.original;
        const editable = m.user_id !== me.data?.user.id && (scope.role === 'owner' || m.role !== 'owner');
        if (!editable) return <Badge variant="secondary">{m.role}</Badge>;
        return (
          <div className="w-36">
            <Select
              label={`Role of ${m.email}`}
              value={m.role}
              onValueChange={(role) => setRoleChange({ userId: m.user_id, email: m.email, from: m.role, to: role as Role })}
              options={assignable(scope.role).map((r) => ({ value: r, label: r }))}
            />
          </div>
        );
      },
    },
    { id: 'joined', header: 'Joined', cell: ({ row }) => <RelativeTime seconds={row.original.joined_at} /> },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) =>
        row.original.user_id === me.data?.user.id || (row.original.role === 'owner' && scope.role !== 'owner') ? null : (
          <ConfirmDialog
            trigger={
              <Button variant="outline" size="sm" aria-label={`Remove ${row.original.email}`}>
                Remove
              </Button>
            }
            title={`Remove ${row.original.email}?`}
            description={<RemovalKeysNotice userId={row.original.user_id} />}
            confirmLabel="Remove member"
            onConfirm={() => remove.mutate({ ...input, userId: row.original.user_id })}
          />
        ),
    },
  ];

  return (
    <>
      <ConfirmDialog
        open={roleChange !== null}
        onOpenChange={(open) => !open && setRoleChange(null)}
        title={roleChange ? `Make ${roleChange.email} ${roleChange.to === 'developer' ? 'a' : 'an'} ${roleChange.to}?` : ''}
        description={roleChange ? <RoleChangeNotice from={roleChange.from} to={roleChange.to} /> : ''}
        confirmLabel={roleChange ? `Make ${roleChange.to}` : 'Change role'}
        confirmVariant={roleChange?.to === 'owner' ? 'destructive' : 'default'}
        onConfirm={() => {
          if (roleChange) updateRole.mutate({ ...input, userId: roleChange.userId, role: roleChange.to });
          setRoleChange(null);
        }}
      />
      <PageHeader title="Members" description="Who can use this organization's console, and with which role." actions={<InviteDialog onInvited={() => void refresh()} />} />
      {members.isPending ? (
        <LoadingRows label="Loading members" />
      ) : members.isError ? (
        <ErrorState error={members.error} onRetry={() => void members.refetch()} />
      ) : (
        <div className="flex flex-col gap-8">
          {members.data.data.length === 0 && pages.page === 1 ? (
            <EmptyState title="No members" />
          ) : (
            <DataTable label="Members" columns={columns} data={members.data.data} rowKey={(m) => m.user_id} pagination={{ ...pages, nextCursor: members.data.next_cursor }} />
          )}
          <PendingInvitations />
        </div>
      )}
    </>
  );
}

/** What a role change gives or takes away (the matrix of docs/console.md), said before it applies. */
function RoleChangeNotice({ from, to }: { from: Role; to: Role }) {
  const what: Record<Role, string> = {
    owner: 'Owners can do everything, including making or removing other owners and removing you.',
    admin: 'Admins manage every key, the members (but not owners), billing, webhooks and settings.',
    developer: 'Developers use keys, the log, generations, the playground and usage; they revoke only the keys they created and see no billing, members or webhooks.',
  };
  return (
    <>
      From {from} to {to}, at once. {what[to]}
    </>
  );
}

/** Invitations sent and not yet accepted, revoked or expired; each can be revoked (its link stops working). */
function PendingInvitations() {
  const trpc = useTRPC();
  const scope = useScope();
  const input = useScopeInput();
  const queryClient = useQueryClient();
  const pages = useCursorPages(input.organizationId);
  const invitations = useQuery(trpc.members.invitations.queryOptions({ ...input, cursor: pages.cursor }));
  const revoke = useMutation(
    trpc.members.revokeInvitation.mutationOptions({
      onSuccess: () => {
        toast.success('Invitation revoked: its link no longer works.');
        void queryClient.invalidateQueries({ queryKey: trpc.members.invitations.queryKey() });
      },
      onError: (error) => toast.error(error.message),
    }),
  );
  const resend = useMutation(
    trpc.members.resendInvitation.mutationOptions({
      onSuccess: (sent) => {
        toast.success(`Invitation sent again to ${sent.email}: a new link, valid until ${dateTime(sent.expires_at)}. The previous link no longer works.`);
        void queryClient.invalidateQueries({ queryKey: trpc.members.invitations.queryKey() });
      },
      onError: (error) => toast.error(error.message),
    }),
  );
  const columns: Column<InvitationRow>[] = [
    { id: 'email', header: 'E-mail', cell: ({ row }) => <span className="font-medium whitespace-nowrap">{row.original.email}</span> },
    { id: 'role', header: 'Role', cell: ({ row }) => <Badge variant="outline">{row.original.role}</Badge> },
    { id: 'invited_by', header: 'Invited by', cell: ({ row }) => <span className="whitespace-nowrap">{row.original.invited_by ?? '—'}</span> },
    { id: 'expires', header: 'Expires', cell: ({ row }) => <span className="whitespace-nowrap">{dateTime(row.original.expires_at)}</span> },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) =>
        row.original.role === 'owner' && scope.role !== 'owner' ? null : (
          <div className="flex gap-1">
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Resend the invitation of ${row.original.email}`}
            disabled={resend.isPending}
            onClick={() => resend.mutate({ ...input, invitationId: row.original.id })}
          >
            Resend
          </Button>
          <InvitationLinkDialog invitationId={row.original.id} email={row.original.email} />
          <ConfirmDialog
            trigger={
              <Button variant="outline" size="sm" aria-label={`Revoke the invitation of ${row.original.email}`}>
                Revoke
              </Button>
            }
            title={`Revoke the invitation of ${row.original.email}?`}
            description="Its link stops working at once. You can invite the address again later."
            confirmLabel="Revoke invitation"
            onConfirm={() => revoke.mutate({ ...input, invitationId: row.original.id })}
          />
          </div>
        ),
    },
  ];
  return (
    <section aria-labelledby="pending-heading">
      <h2 id="pending-heading" className="mb-2 text-lg font-semibold">
        Pending invitations
      </h2>
      <QueryTable
        query={invitations}
        loadingLabel="Loading invitations"
        loadingRows={2}
        empty={<EmptyState title="No pending invitations">Invitations appear here until they are accepted, revoked or expire (7 days).</EmptyState>}
        pages={pages}
        label="Pending invitations"
        columns={columns}
        rowKey={(i) => i.id}
      />
    </section>
  );
}

function InviteDialog({ onInvited }: { onInvited: () => void }) {
  const trpc = useTRPC();
  const scope = useScope();
  const input = useScopeInput();
  const [open, setOpen] = React.useState(false);
  useMailDelivery(); // before the dialog opens: its line must not arrive under a click
  const form = useForm({ resolver: zodResolver(inviteInput), defaultValues: { email: '', role: 'developer' as Role } });
  const invite = useMutation(
    trpc.members.invite.mutationOptions({
      onSuccess: (invitation) => {
        toast.success(`Invitation sent to ${invitation.email}.`);
        setOpen(false);
        form.reset();
        onInvited();
      },
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) invite.reset();
      }}
    >
      <Button onClick={() => setOpen(true)}>
        <UserPlus aria-hidden /> Invite member
      </Button>
      <DialogContent>
        <form onSubmit={form.handleSubmit((values) => invite.mutate({ ...input, ...values }))} className="flex flex-col gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Invite a member</DialogTitle>
            <DialogDescription>They get an e-mail with a link valid for 7 days.</DialogDescription>
          </DialogHeader>
          <MailDestination />
          <FormError message={invite.error?.message} />
          <TextField control={form.control} name="email" label="E-mail" type="email" autoComplete="off" />
          <Controller
            control={form.control}
            name="role"
            render={({ field }) => (
              <div className="grid gap-1.5">
                <Label htmlFor="invite-role">Role</Label>
                <Select id="invite-role" label="Role" value={field.value} onValueChange={field.onChange} options={assignable(scope.role).map((r) => ({ value: r, label: r }))} />
              </div>
            )}
          />
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={invite.isPending}>
              Send invitation
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
