'use client';
import * as React from 'react';
import { useMutation } from '@tanstack/react-query';
import { KEY_ROLL_OVERLAPS } from '@/shared/console/console-inputs';
import { useTRPC } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';
import { dateTime } from '@/console-client/format';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormError } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { SecretOnce, useSecretCloseGuard } from '@/components/ui/secret-once';

const OVERLAP_LABELS: Record<(typeof KEY_ROLL_OVERLAPS)[number], string> = {
  0: 'Now',
  3600: 'In 1 hour',
  86_400: 'In 24 hours',
  259_200: 'In 3 days',
  604_800: 'In 7 days',
};
const OVERLAP_OPTIONS = KEY_ROLL_OVERLAPS.map((s) => ({ value: String(s), label: OVERLAP_LABELS[s] }));

/**
 * Roll a key (server/keys/roll-key.ts): a new secret for the same key, shown once; the old
 * secret keeps working for the overlap chosen, so the code using it can switch without an outage.
 */
export function RollKeyDialog({
  keyId,
  name,
  prefix,
  previousPrefix,
  open,
  onOpenChange,
  onRolled,
}: {
  keyId: string;
  name: string;
  prefix: string;
  /** A secret an earlier roll replaced, still in its overlap: rolling again stops it at once. */
  previousPrefix: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRolled: () => void;
}) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const id = React.useId();
  const [overlap, setOverlap] = React.useState('86400');
  const roll = useMutation(trpc.keys.roll.mutationOptions({ onSuccess: onRolled }));
  const close = () => {
    onOpenChange(false);
    roll.reset();
    setOverlap('86400');
  };
  const rolled = roll.data;
  const guard = useSecretCloseGuard(Boolean(rolled), close);
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent {...guard.contentProps}>
        {guard.confirmation}
        {rolled ? (
          <>
            <DialogHeader>
              <DialogTitle>New secret for “{rolled.name}”</DialogTitle>
              <DialogDescription>
                {rolled.previous_secret_expires_at === null
                  ? `The old secret (${rolled.previous_prefix}…) has stopped working.`
                  : `The old secret (${rolled.previous_prefix}…) works until ${dateTime(rolled.previous_secret_expires_at)}; switch your code to the new one before then.`}
              </DialogDescription>
            </DialogHeader>
            <SecretOnce
              secret={rolled.secret}
              label="New secret key"
              testId="rolled-key-secret"
              warning="This is the only time the new secret is shown. We store only its hash: if you lose it, roll the key again."
            />
            <DialogFooter>
              <Button onClick={close}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              roll.mutate({ ...input, keyId, overlapSeconds: Number(overlap) });
            }}
            className="flex flex-col gap-4"
            noValidate
          >
            <DialogHeader>
              <DialogTitle>Roll “{name}”</DialogTitle>
              <DialogDescription>
                A new secret for this key, with the same name, permissions, fences and expiry. The current secret ({prefix}…) keeps working until the time you choose, then requests with it get 401.
              </DialogDescription>
            </DialogHeader>
            <FormError message={roll.error?.message} />
            <div className="grid gap-1.5">
              <Label htmlFor={id}>Old secret stops working</Label>
              <Select id={id} label="Old secret stops working" value={overlap} onValueChange={setOverlap} options={OVERLAP_OPTIONS} />
              {previousPrefix ? <p className="text-xs text-destructive">The secret an earlier roll replaced ({previousPrefix}…) stops working at once.</p> : null}
            </div>
            <DialogFooter>
              <Button variant="outline" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={roll.isPending}>
                Roll key
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
