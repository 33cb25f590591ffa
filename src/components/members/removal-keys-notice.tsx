'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';

/**
 * What removing a member does (access, pending invitations they sent, their API keys), shown in the confirmation (it mounts only
 * when the dialog opens, so the keys are read then): every active key they created, in both
 * modes, is revoked with the removal. Inline text only: it sits in the dialog's description.
 */
export function RemovalKeysNotice({ userId }: { userId: string }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const keys = useQuery(trpc.members.keysToRevoke.queryOptions({ ...input, userId }));
  const lead = 'They lose access to this organization at once, and the invitations they sent that are still pending end.';
  if (keys.isPending) return <span>{lead} Looking up the API keys they created…</span>;
  if (keys.isError) return <span>{lead} Every API key they created is revoked too (the list could not be loaded: {keys.error.message}).</span>;
  const list = keys.data.data;
  if (list.length === 0) return <span>{lead} They created no active API key.</span>;
  return (
    <span data-testid="removal-keys">
      {lead} The {list.length === 1 ? 'API key' : `${list.length} API keys`} they created {list.length === 1 ? 'is' : 'are'} revoked too, in both modes:{' '}
      {list.map((k, i) => (
        <span key={k.id}>
          <span className="font-medium text-foreground">{k.name}</span> ({k.mode}, {k.prefix}…){i < list.length - 1 ? ', ' : '. '}
        </span>
      ))}
      Create replacements first if an integration uses them.
    </span>
  );
}
