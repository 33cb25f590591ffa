'use client';
import * as React from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MonitorSmartphone } from 'lucide-react';
import { useTRPC, type ConsoleOutputs } from '@/console-client/trpc';
import { dateTime } from '@/console-client/format';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { DataTable, type Column } from '@/components/ui/data-table';
import { FormError } from '@/components/ui/form';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { toast } from '@/components/ui/toaster';
import { RelativeTime } from '@/components/ui/relative-time';

type SessionRow = ConsoleOutputs['sessions']['list']['data'][number];

/** The user's signed-in sessions (device, IP, last seen; this one marked), and signing out the others. */
export function SessionsSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sessions = useQuery(trpc.sessions.list.queryOptions());
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.sessions.list.queryKey() });
  const end = useMutation(trpc.sessions.end.mutationOptions({ onSuccess: () => { toast.success('Session signed out.'); refresh(); } }));
  const endOthers = useMutation(
    trpc.sessions.endOthers.mutationOptions({
      onSuccess: (data) => {
        toast.success(data.ended === 1 ? 'One other session signed out.' : `${data.ended} other sessions signed out.`);
        refresh();
      },
    }),
  );
  const columns: Column<SessionRow>[] = [
    {
      id: 'device',
      header: 'Device',
      cell: ({ row }) => (
        <span className="flex flex-wrap items-center gap-2" title={row.original.user_agent ?? undefined}>
          {row.original.device}
          {row.original.current ? <Badge variant="success">This session</Badge> : null}
          {row.original.pending_second_factor ? <Badge variant="warning">Waiting for a two-factor code</Badge> : null}
        </span>
      ),
    },
    { id: 'ip', header: 'IP', cell: ({ row }) => <span className="font-mono text-xs">{row.original.ip ?? '—'}</span> },
    { id: 'seen', header: 'Last seen', cell: ({ row }) => <RelativeTime seconds={row.original.last_seen_at} className="text-xs" /> },
    { id: 'since', header: 'Signed in', cell: ({ row }) => <RelativeTime seconds={row.original.created_at} className="text-xs" /> },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) =>
        row.original.current ? null : (
          <ConfirmDialog
            trigger={
              <Button variant="outline" size="sm" aria-label={`Sign out ${row.original.device} (${row.original.ip ?? 'unknown IP'})`}>
                Sign out
              </Button>
            }
            title="Sign out this session?"
            description={`${row.original.device}, last seen ${dateTime(row.original.last_seen_at)}. It will need to sign in again.`}
            confirmLabel="Sign out"
            onConfirm={() => end.mutate({ sessionId: row.original.id })}
          />
        ),
    },
  ];
  const others = sessions.data?.data.filter((s) => !s.current).length ?? 0;
  return (
    <Card aria-labelledby="sessions-heading" className="min-w-0">
      <CardHeader>
        <h2 id="sessions-heading" className="flex items-center gap-2 font-semibold">
          <MonitorSmartphone className="size-4" aria-hidden /> Sessions
        </h2>
        <p className="text-sm text-muted-foreground">Where your account is signed in. Sign out anything you do not recognise, then change your password.</p>
      </CardHeader>
      <CardContent className="flex min-w-0 flex-col gap-3">
        <FormError message={end.error?.message ?? endOthers.error?.message} />
        {sessions.isPending ? (
          <LoadingRows rows={2} label="Loading sessions" />
        ) : sessions.isError ? (
          <ErrorState error={sessions.error} onRetry={() => void sessions.refetch()} />
        ) : (
          <div className="max-w-full min-w-0">
            <DataTable label="Your sessions" columns={columns} data={sessions.data.data} rowKey={(s) => s.id} />
          </div>
        )}
        <ConfirmDialog
          trigger={
            <Button variant="outline" className="self-start" disabled={others === 0}>
              Sign out all other sessions
            </Button>
          }
          title="Sign out every other session?"
          description="Every browser signed in to your account except this one will need to sign in again."
          confirmLabel="Sign out others"
          onConfirm={() => endOthers.mutate()}
        />
      </CardContent>
    </Card>
  );
}
