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
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { FormError, TextField } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toaster';

/** Rename a key: its secret, permissions and history stay. */
export function RenameKeyDialog({ keyId, name, onRenamed }: { keyId: string; name: string; onRenamed: () => void }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const [open, setOpen] = React.useState(false);
  const form = useForm({ resolver: zodResolver(renameKeyInput), defaultValues: { keyId, name } });
  const rename = useMutation(
    trpc.keys.rename.mutationOptions({
      onSuccess: (renamed) => {
        toast.success(`Key renamed to “${renamed.name}”.`);
        setOpen(false);
        onRenamed();
      },
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) form.reset({ keyId, name });
      }}
    >
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={`Rename ${name}`}>
          Rename
        </Button>
      </DialogTrigger>
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
            options={[{ value: NEVER, label: 'Never' }, ...KEY_EXPIRY_DAYS.map((d) => ({ value: String(d), label: d === 365 ? 'In 1 year' : `In ${d} days` }))]}
          />
          <p className="text-xs text-muted-foreground">After that, requests with the key are refused with 401 api_key_invalid.</p>
        </div>
      )}
    />
  );
}

/** The Expires column: the date, "expired" once past, or "never". */
export function KeyExpiry({ expiresAt, expired: past }: { expiresAt: number | null; expired: boolean }) {
  if (expiresAt === null) return <span className="text-muted-foreground">Never</span>;
  return <span className={past ? 'whitespace-nowrap text-destructive' : 'whitespace-nowrap'}>{past ? `Expired ${dateTime(expiresAt)}` : dateTime(expiresAt)}</span>;
}
