'use client';
import * as React from 'react';
import { MoreHorizontal } from 'lucide-react';
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

export type KeyAction = 'rename' | 'expiry' | 'fences' | 'roll' | 'revoke';

/**
 * A key's actions in one menu (one control per row, the same on a laptop and a phone); only what
 * this member may do is offered. The dialogs live outside the table (KeyActionDialog): a table
 * re-renders its cells when the list is refetched, which would take an open dialog (and a
 * secret on screen) with it.
 */
export function KeyActionsMenu({ apiKey, onAction }: { apiKey: ManagedKey; onAction: (action: KeyAction) => void }) {
  if (!apiKey.can_revoke && !apiKey.can_fence) return null;
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="icon" className="size-8" aria-label={`Actions for ${apiKey.name}`} title="Actions">
          <MoreHorizontal aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {apiKey.can_revoke ? (
          <>
            <DropdownMenuItem onSelect={() => onAction('rename')}>Rename</DropdownMenuItem>
            <DropdownMenuItem onSelect={() => onAction('expiry')}>Change expiry</DropdownMenuItem>
          </>
        ) : null}
        {apiKey.can_fence ? <DropdownMenuItem onSelect={() => onAction('fences')}>Fences</DropdownMenuItem> : null}
        {apiKey.can_revoke ? (
          <>
            <DropdownMenuItem onSelect={() => onAction('roll')}>Roll key</DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem className="text-destructive focus:text-destructive" onSelect={() => onAction('revoke')}>
              Revoke
            </DropdownMenuItem>
          </>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** The dialog of the action chosen for a key (as it was when chosen), open until it closes itself. */
export function KeyActionDialog({
  apiKey,
  action,
  onClose,
  onChanged,
  onRevoke,
}: {
  apiKey: ManagedKey;
  action: KeyAction;
  onClose: () => void;
  onChanged: () => void;
  onRevoke: () => void;
}) {
  const props = { open: true, onOpenChange: (open: boolean) => (open ? undefined : onClose()) };
  switch (action) {
    case 'rename':
      return <RenameKeyDialog keyId={apiKey.id} name={apiKey.name} {...props} onRenamed={onChanged} />;
    case 'expiry':
      return <KeyExpiryDialog keyId={apiKey.id} name={apiKey.name} expiresAt={apiKey.expires_at} {...props} onSaved={onChanged} />;
    case 'fences':
      return <KeyFencesDialog keyId={apiKey.id} name={apiKey.name} fences={apiKey} {...props} onSaved={onChanged} />;
    case 'roll':
      return <RollKeyDialog keyId={apiKey.id} name={apiKey.name} prefix={apiKey.prefix} previousPrefix={apiKey.previous_prefix} {...props} onRolled={onChanged} />;
    case 'revoke':
      return (
        <ConfirmDialog
          {...props}
          title={`Revoke “${apiKey.name}”?`}
          description="Requests with this key (and with a secret it replaced that still works) are refused with 401 at once, on every server. This cannot be undone."
          confirmLabel="Revoke key"
          onConfirm={onRevoke}
        />
      );
  }
}
