'use client';
import * as React from 'react';
import { AlertTriangle, Copy } from 'lucide-react';
import { Button } from './button';
import { ConfirmDialog } from './alert-dialog';
import { Input } from './input';
import { Label } from './label';
import { toast } from './toaster';

/** A secret shown once (a new API key, a webhook signing secret): the warning, the value, a copy button. */
export function SecretOnce({ secret, label, warning, testId }: { secret: string; label: string; warning: React.ReactNode; testId: string }) {
  const id = React.useId();
  return (
    <>
      <p role="alert" className="flex items-start gap-2 rounded-md bg-warning p-3 text-sm text-warning-foreground">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>{warning}</span>
      </p>
      <div className="flex gap-2">
        <Label htmlFor={id} className="sr-only">
          {label}
        </Label>
        <Input id={id} readOnly value={secret} className="font-mono text-xs" data-testid={testId} onFocus={(e) => e.currentTarget.select()} />
        <Button
          variant="outline"
          onClick={() => {
            void navigator.clipboard?.writeText(secret).then(
              () => toast.success('Copied'),
              () => toast.error('Could not copy; select the text and copy it.'),
            );
          }}
        >
          <Copy aria-hidden /> Copy
        </Button>
      </div>
    </>
  );
}

/**
 * For a dialog showing a secret once: Esc or a click outside asks before closing, since the
 * secret is not shown again (Done and the close button are explicit and close at once). Spread
 * `contentProps` on the DialogContent and render `confirmation` inside it.
 */
export function useSecretCloseGuard(active: boolean, close: () => void) {
  const [asking, setAsking] = React.useState(false);
  const ask = (event: Event) => {
    if (!active) return;
    event.preventDefault();
    setAsking(true);
  };
  return {
    contentProps: { onEscapeKeyDown: ask, onInteractOutside: ask },
    confirmation: (
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title="Close without the secret?"
        description="You won’t see this secret again. Copy it first if you still need it."
        confirmLabel="Close anyway"
        onConfirm={() => {
          setAsking(false);
          close();
        }}
      />
    ),
  };
}
