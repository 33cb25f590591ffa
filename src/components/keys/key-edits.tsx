'use client';
import * as React from 'react';
import { useMutation } from '@tanstack/react-query';
import { Controller, useForm, type Control, type FieldValues, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { KEY_EXPIRY_DAYS, renameKeyInput } from '@/shared/console/console-inputs';
import { useTRPC } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';
import { dateTime } from '@/console-client/format';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { RelativeTime } from '@/components/ui/relative-time';
import { FormError, TextField } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toaster';

/** Rename a key: its secret, permissions and history stay. Opened from the key's actions. */
export function RenameKeyDialog({ keyId, name, open, onOpenChange, onRenamed }: { keyId: string; name: string; open: boolean; onOpenChange: (open: boolean) => void; onRenamed: () => void }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const form = useForm({ resolver: zodResolver(renameKeyInput), defaultValues: { keyId, name } });
  const rename = useMutation(
    trpc.keys.rename.mutationOptions({
      onSuccess: (renamed) => {
        toast.success(`Key renamed to “${renamed.name}”.`);
        onOpenChange(false);
        onRenamed();
      },
    }),
  );
  React.useEffect(() => {
    if (open) form.reset({ keyId, name });
  }, [open, form, keyId, name]);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Rename “{name}”</DialogTitle>
          <DialogDescription>The key keeps working as before; only its name in lists and the log changes.</DialogDescription>
        </DialogHeader>
        <form onSubmit={form.handleSubmit((values) => rename.mutate({ ...input, ...values }))} className="flex flex-col gap-4" noValidate>
          <FormError message={rename.error?.message} />
          <TextField control={form.control} name="name" label="Name" />
          <DialogFooter>
            <Button type="submit" disabled={rename.isPending}>
              Save name
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

const NEVER = 'never';
const expiryOptions = [{ value: NEVER, label: 'Never' }, ...KEY_EXPIRY_DAYS.map((d) => ({ value: String(d), label: d === 365 ? 'In 1 year' : `In ${d} days` }))];

/** "Expires": never, or after one of the offered lifetimes (the form holds days or undefined). */
export function KeyExpiryField<T extends FieldValues>({ control, name }: { control: Control<T>; name: Path<T> }) {
  const id = React.useId();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <div className="grid gap-1.5">
          <Label htmlFor={id}>Expires</Label>
          <Select
            id={id}
            label="Expires"
            value={field.value === undefined ? NEVER : String(field.value)}
            onValueChange={(v) => field.onChange(v === NEVER ? undefined : Number(v))}
            options={expiryOptions}
          />
          <p className="text-xs text-muted-foreground">After that, requests with the key are refused with 401 api_key_invalid.</p>
        </div>
      )}
    />
  );
}

/** Set, change or remove a key's expiry (from now); an expired key given one works again. */
export function KeyExpiryDialog({ keyId, name, expiresAt, open, onOpenChange, onSaved }: { keyId: string; name: string; expiresAt: number | null; open: boolean; onOpenChange: (open: boolean) => void; onSaved: () => void }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const id = React.useId();
  // The caller mounts the dialog afresh at each opening (its key): the choice starts at 30 days.
  const [choice, setChoice] = React.useState(String(KEY_EXPIRY_DAYS[1]));
  const save = useMutation(
    trpc.keys.expiry.mutationOptions({
      onSuccess: (saved) => {
        toast.success(saved.expires_at === null ? `“${name}” no longer expires.` : `“${name}” now expires ${dateTime(saved.expires_at)}.`);
        onOpenChange(false);
        onSaved();
      },
    }),
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Expiry of “{name}”</DialogTitle>
          <DialogDescription>
            {expiresAt === null ? 'It never expires now.' : `It expires ${dateTime(expiresAt)} now.`} The new expiry counts from today and applies to the next request; the change is audited.
          </DialogDescription>
        </DialogHeader>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate({ ...input, keyId, expiresInDays: choice === NEVER ? null : Number(choice) });
          }}
          className="flex flex-col gap-4"
          noValidate
        >
          <FormError message={save.error?.message} />
          <div className="grid gap-1.5">
            <Label htmlFor={id}>Expires</Label>
            <Select id={id} label="Expires" value={choice} onValueChange={setChoice} options={expiryOptions} />
            <p className="text-xs text-muted-foreground">After that, requests with the key are refused with 401 api_key_invalid.</p>
          </div>
          <DialogFooter>
            <Button type="submit" disabled={save.isPending}>
              Save expiry
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The Expires column: when (relative, exact UTC on hover), "expired" once past, or "never". */
export function KeyExpiry({ expiresAt, expired: past }: { expiresAt: number | null; expired: boolean }) {
  if (expiresAt === null) return <span className="text-muted-foreground">Never</span>;
  // Beyond a week the time is a date, which may wrap: the column stays narrow.
  if (!past) return <RelativeTime seconds={expiresAt} className="whitespace-normal" />;
  return (
    <span className="text-destructive">
      Expired <RelativeTime seconds={expiresAt} className="whitespace-normal" />
    </span>
  );
}
