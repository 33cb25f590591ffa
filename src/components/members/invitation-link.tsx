'use client';
import * as React from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link2 } from 'lucide-react';
import { useTRPC } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormError } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/**
 * "Copy link": a link to pass on by another channel. It is not the mailed link (which proves
 * the address when used to sign up): it admits only an account of the invited address that is
 * already confirmed, so it is safe in the inviter's hands.
 */
export function InvitationLinkDialog({ invitationId, email }: { invitationId: string; email: string }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const [open, setOpen] = React.useState(false);
  const link = useMutation(trpc.members.invitationLink.mutationOptions());
  const id = React.useId();
  const change = (next: boolean) => {
    setOpen(next);
    if (next) link.mutate({ ...input, invitationId });
    else link.reset();
  };
  return (
    <Dialog open={open} onOpenChange={change}>
      <Button variant="ghost" size="sm" aria-label={`Copy the invitation link of ${email}`} onClick={() => change(true)}>
        <Link2 aria-hidden /> Link
      </Button>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Invitation link for {email}</DialogTitle>
          <DialogDescription>
            Send it by any channel. Only {email} can use it: they sign in with that confirmed address to join. To create an account they use the link in the
            invitation e-mail. Copying a new link ends the previous one.
          </DialogDescription>
        </DialogHeader>
        <FormError message={link.error?.message} />
        {link.data ? (
          <div className="flex gap-2">
            <Label htmlFor={id} className="sr-only">
              Invitation link
            </Label>
            <Input id={id} readOnly value={link.data.url} className="font-mono text-xs" data-testid="invitation-link" onFocus={(e) => e.currentTarget.select()} />
            <CopyButton text={link.data.url} copied="Invitation link copied" />
          </div>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={() => change(false)}>
            Done
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
