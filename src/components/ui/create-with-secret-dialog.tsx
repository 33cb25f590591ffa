'use client';
import * as React from 'react';
import { Plus } from 'lucide-react';
import { Button } from './button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from './dialog';
import { SecretOnce, useSecretCloseGuard } from './secret-once';

/**
 * The dialog that creates something with a secret (an API key, a webhook endpoint): a form, then
 * the secret, shown once (Esc or a click outside then asks first). Closing it by any way resets
 * the caller's form and mutation.
 */
export function CreateWithSecretDialog({
  label,
  title,
  description,
  onSubmit,
  mutation,
  form,
  shown,
  children,
}: {
  /** The trigger's and the submit button's label. */
  label: string;
  title: React.ReactNode;
  description: React.ReactNode;
  onSubmit: React.FormEventHandler<HTMLFormElement>;
  /** The create mutation: once it has data, the dialog shows its secret instead of the form. */
  mutation: { isPending: boolean; data?: { secret: string }; reset: () => void };
  /** The react-hook-form form, reset with the mutation when the dialog closes. */
  form: { reset: () => void };
  shown: { title: React.ReactNode; description: React.ReactNode; label: string; testId: string; warning: React.ReactNode };
  /** The form's fields, between its heading and its buttons. */
  children: React.ReactNode;
}) {
  const [open, setOpen] = React.useState(false);
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      mutation.reset();
      form.reset();
    }
  };
  const secret = mutation.data?.secret;
  const guard = useSecretCloseGuard(Boolean(secret), () => close(false));
  return (
    <Dialog open={open} onOpenChange={close}>
      <Button onClick={() => setOpen(true)}>
        <Plus aria-hidden /> {label}
      </Button>
      <DialogContent {...guard.contentProps}>
        {guard.confirmation}
        {secret ? (
          <>
            <DialogHeader>
              <DialogTitle>{shown.title}</DialogTitle>
              <DialogDescription>{shown.description}</DialogDescription>
            </DialogHeader>
            <SecretOnce secret={secret} label={shown.label} testId={shown.testId} warning={shown.warning} />
            <DialogFooter>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>{title}</DialogTitle>
              <DialogDescription>{description}</DialogDescription>
            </DialogHeader>
            {children}
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={mutation.isPending}>
                {label}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
