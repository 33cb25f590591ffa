'use client';
import * as React from 'react';
import { ChevronDown } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { KeyExpiryDialog, RenameKeyDialog } from './key-edits';
import { KeyFencesDialog, type KeyFencesValue } from './key-fences';
import { RollKeyDialog } from './roll-key-dialog';

export interface ManagedKey extends KeyFencesValue {
  id: string;
  name: string;
  prefix: string;
  previous_prefix: string | null;
  expires_at: number | null;
  can_revoke: boolean;
  can_fence: boolean;
}

type Open = 'rename' | 'expiry' | 'fences' | 'roll' | 'revoke' | null;

/**
 * A key's actions in one menu (one control per row, the same on a laptop and a phone): each
 * item opens its dialog. Only what this member may do is offered.
 */
export function KeyActions({ apiKey, onChanged, onRevoke }: { apiKey: ManagedKey; onChanged: () => void; onRevoke: () => void }) {
  const [open, setOpen] = React.useState<Open>(null);
  const dialog = (which: Exclude<Open, null>) => ({ open: open === which, onOpenChange: (next: boolean) => setOpen(next ? which : null) });
  if (!apiKey.can_revoke && !apiKey.can_fence) return null;
  return (
    <>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" size="sm" aria-label={`Actions for ${apiKey.name}`}>
            Actions <ChevronDown aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          {apiKey.can_revoke ? (
            <>
              <DropdownMenuItem onSelect={() => setOpen('rename')}>Rename</DropdownMenuItem>
              <DropdownMenuItem onSelect={() => setOpen('expiry')}>Change expiry</DropdownMenuItem>
            </>
          ) : null}
          {apiKey.can_fence ? <DropdownMenuItem onSelect={() => setOpen('fences')}>Fences</DropdownMenuItem> : null}
          {apiKey.can_revoke ? (
            <>
              <DropdownMenuItem onSelect={() => setOpen('roll')}>Roll key</DropdownMenuItem>
              <DropdownMenuSeparator />
              <DropdownMenuItem className="text-destructive focus:text-destructive" onSelect={() => setOpen('revoke')}>
                Revoke
              </DropdownMenuItem>
            </>
          ) : null}
        </DropdownMenuContent>
      </DropdownMenu>
      {apiKey.can_revoke ? (
        <>
          <RenameKeyDialog keyId={apiKey.id} name={apiKey.name} {...dialog('rename')} onRenamed={onChanged} />
          <KeyExpiryDialog key={`expiry-${open === 'expiry'}`} keyId={apiKey.id} name={apiKey.name} expiresAt={apiKey.expires_at} {...dialog('expiry')} onSaved={onChanged} />
          <RollKeyDialog keyId={apiKey.id} name={apiKey.name} prefix={apiKey.prefix} previousPrefix={apiKey.previous_prefix} {...dialog('roll')} onRolled={onChanged} />
          <ConfirmDialog
            {...dialog('revoke')}
            title={`Revoke “${apiKey.name}”?`}
            description="Requests with this key (and with a secret it replaced that still works) are refused with 401 at once, on every server. This cannot be undone."
            confirmLabel="Revoke key"
            onConfirm={onRevoke}
          />
        </>
      ) : null}
      {apiKey.can_fence ? <KeyFencesDialog key={`fences-${open === 'fences'}`} keyId={apiKey.id} name={apiKey.name} fences={apiKey} {...dialog('fences')} onSaved={onChanged} /> : null}
    </>
  );
}
