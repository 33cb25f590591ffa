'use client';
import * as React from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTRPC } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';
import { money } from '@/console-client/format';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormError } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/toaster';

export interface KeyFencesValue {
  allowed_ips: string[];
  requests_per_minute: number | null;
  monthly_spend_cap_cents: number | null;
}

/** Under the key's permissions: what narrows the key, or that nothing does. */
export function KeyFencesSummary({ fences }: { fences: KeyFencesValue }) {
  const parts: string[] = [];
  if (fences.allowed_ips.length > 0) parts.push(fences.allowed_ips.length <= 2 ? `IPs ${fences.allowed_ips.join(', ')}` : `${fences.allowed_ips.length} IP networks`);
  if (fences.requests_per_minute !== null) parts.push(`${fences.requests_per_minute} req/min`);
  if (fences.monthly_spend_cap_cents !== null) parts.push(`${money(fences.monthly_spend_cap_cents)}/month`);
  if (parts.length === 0) return <span className="text-xs text-muted-foreground">No fences</span>;
  return (
    <div className="flex flex-col text-xs" title={fences.allowed_ips.join('\n') || undefined}>
      <span className="text-muted-foreground">Fences:</span>
      {parts.map((p) => (
        <span key={p} className="break-all">
          {p}
        </span>
      ))}
    </div>
  );
}

/** A number from a field, null when empty, undefined when it is not one. */
function numberOrNull(text: string): number | null | undefined {
  if (text.trim() === '') return null;
  const value = Number(text.trim().replace(',', '.'));
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Owners and admins: the key's IP allowlist, request rate and monthly spend cap (each optional). */
export function KeyFencesDialog({ keyId, name, fences, open, onOpenChange, onSaved }: { keyId: string; name: string; fences: KeyFencesValue; open: boolean; onOpenChange: (open: boolean) => void; onSaved: () => void }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const ids = { ips: React.useId(), rate: React.useId(), cap: React.useId() };
  // The caller mounts the dialog afresh at each opening (its key), so the fields start from the key's fences.
  const [ips, setIps] = React.useState(() => fences.allowed_ips.join('\n'));
  const [rate, setRate] = React.useState(() => (fences.requests_per_minute === null ? '' : String(fences.requests_per_minute)));
  const [cap, setCap] = React.useState(() => (fences.monthly_spend_cap_cents === null ? '' : (fences.monthly_spend_cap_cents / 100).toFixed(2)));
  const [invalid, setInvalid] = React.useState<string | null>(null);
  const save = useMutation(
    trpc.keys.fences.mutationOptions({
      onSuccess: () => {
        toast.success(`Fences of “${name}” saved. They apply to the next request.`);
        onOpenChange(false);
        onSaved();
      },
    }),
  );
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const euros = numberOrNull(cap);
    const perMinute = numberOrNull(rate);
    if (perMinute === undefined || (perMinute !== null && !Number.isInteger(perMinute))) return setInvalid('Requests per minute must be a whole number, or empty.');
    if (euros === undefined) return setInvalid('The monthly spend cap must be an amount in euros, or empty.');
    setInvalid(null);
    save.mutate({
      ...input,
      keyId,
      allowedIps: ips
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean),
      requestsPerMinute: perMinute,
      monthlySpendCapCents: euros === null ? null : Math.round(euros * 100),
    });
  };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Fences of “{name}”</DialogTitle>
          <DialogDescription>Each is optional and narrows this key only; the organization’s limits still apply. Changes apply to the next request and are audited.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
          <FormError message={invalid ?? save.error?.message} />
          <div className="grid gap-1.5">
            <Label htmlFor={ids.ips}>IP allowlist</Label>
            <textarea
              id={ids.ips}
              className="min-h-20 rounded-md border bg-background p-2 font-mono text-sm"
              value={ips}
              onChange={(e) => setIps(e.target.value)}
              placeholder={'203.0.113.0/24\n2001:db8::/32'}
            />
            <p className="text-xs text-muted-foreground">One IPv4 or IPv6 address or CIDR per line, at most 50. Empty: any address. Requests from elsewhere get 403 api_key_ip_not_allowed.</p>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={ids.rate}>Requests per minute</Label>
            <Input id={ids.rate} inputMode="numeric" value={rate} onChange={(e) => setRate(e.target.value)} placeholder="The organization’s" />
            <p className="text-xs text-muted-foreground">Below the organization’s rate. Beyond it: 429 rate_limit_exceeded.</p>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={ids.cap}>Monthly spend cap (EUR)</Label>
            <Input id={ids.cap} inputMode="decimal" value={cap} onChange={(e) => setCap(e.target.value)} placeholder="The organization’s limit" />
            <p className="text-xs text-muted-foreground">Live charges of this key this calendar month (UTC), below the organization’s monthly limit. Past it: 402 api_key_spend_cap_reached, nothing charged.</p>
          </div>
          <DialogFooter>
            <Button type="submit" disabled={save.isPending}>
              Save fences
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
