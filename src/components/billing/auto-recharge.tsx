'use client';
import * as React from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { autoRechargeForm } from '@/shared/console/console-inputs';
import { useTRPC, type ConsoleOutputs } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';
import { money } from '@/console-client/format';
import { Button } from '@/components/ui/button';
import { FormError, TextField } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/toaster';

type Billing = ConsoleOutputs['billing']['get'];
type Values = z.input<typeof autoRechargeForm>;

const euros = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(2));
const sameValues = (a: Values, b: Partial<Values> | undefined) => a.enabled === b?.enabled && a.threshold === b.threshold && a.amount === b.amount;

/** The form's values for settings as the server has them (defaults shown while off and never set). */
const formValues = (enabled: boolean, thresholdCents: number | null, amountCents: number | null): Values => ({
  enabled,
  threshold: euros(thresholdCents ?? 1_000),
  amount: euros(amountCents ?? 5_000),
});

/** Auto-recharge: on/off, threshold and amount, and the card that pays it (saved by the first purchase through Stripe, changed on Stripe's page). */
export function AutoRechargeForm({ billing }: { billing: Billing }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const queryClient = useQueryClient();
  const { auto_recharge: current, payment } = billing;
  const serverValues = React.useMemo(
    () => formValues(current.enabled, current.threshold_cents, current.amount_cents),
    [current.enabled, current.threshold_cents, current.amount_cents],
  );
  const form = useForm<Values, unknown, z.output<typeof autoRechargeForm>>({ resolver: zodResolver(autoRechargeForm), defaultValues: serverValues });
  // New settings from the server (a save's refetch, auto-recharge turned off after a failed
  // payment) show in the form unless the user is editing it, that is unless its values differ
  // from what it last started from: remounting the form on new data took back a switch
  // flipped while a save's refetch was on its way.
  React.useEffect(() => {
    if (sameValues(form.getValues(), form.formState.defaultValues)) form.reset(serverValues);
  }, [serverValues, form]);
  const save = useMutation(
    trpc.billing.setAutoRecharge.mutationOptions({
      onSuccess: (saved) => {
        toast.success(saved.enabled ? `Auto-recharge on: ${money(saved.amount ?? 0)} when the balance falls below ${money(saved.threshold ?? 0)}.` : 'Auto-recharge off.');
        // What was saved is the form's new starting point (amounts as the server keeps them).
        form.reset(formValues(saved.enabled, saved.threshold, saved.amount));
        void queryClient.invalidateQueries({ queryKey: trpc.billing.get.queryKey() });
      },
    }),
  );
  const changeCard = useMutation(trpc.billing.changeCard.mutationOptions({ onSuccess: ({ url }) => window.location.assign(url) }));
  const switchId = React.useId();
  const needsCard = payment.mode === 'checkout' && !payment.card;
  return (
    <form onSubmit={form.handleSubmit((values) => save.mutate({ ...input, ...values }))} className="flex flex-col gap-3" noValidate aria-label="Auto-recharge settings">
      <FormError message={save.error?.message ?? changeCard.error?.message} />
      <div className="flex items-center gap-2">
        <Controller
          control={form.control}
          name="enabled"
          render={({ field }) => <Switch id={switchId} checked={field.value} onCheckedChange={field.onChange} disabled={needsCard && !field.value} />}
        />
        <Label htmlFor={switchId}>Recharge automatically</Label>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField control={form.control} name="threshold" label="When the balance falls below (EUR)" inputMode="decimal" />
        <TextField control={form.control} name="amount" label="Add (EUR)" inputMode="decimal" />
      </div>
      <p className="text-xs text-muted-foreground" data-testid="recharge-card">
        {payment.mode === 'operator_approval'
          ? 'No card: this installation takes no payment (manual provider). Each recharge becomes a credit request that the operator approves; until then the balance does not change.'
          : payment.card
            ? `Card: ${payment.card}.`
            : 'No card yet: add credit once; the card you pay with is saved for auto-recharge.'}
      </p>
      {payment.mode === 'checkout' && payment.card ? (
        <Button type="button" variant="outline" size="sm" className="self-start" disabled={changeCard.isPending || changeCard.isSuccess} onClick={() => changeCard.mutate(input)}>
          Change card
        </Button>
      ) : null}
      <Button type="submit" variant="outline" className="self-start" disabled={save.isPending}>
        Save auto-recharge
      </Button>
    </form>
  );
}

/**
 * Back from the provider's card page (?card_setup=cs_…): the server asks the provider and saves
 * the card; say what happened and clean the URL. Without the parameter (the buyer went back) nothing changed.
 */
export function useCardSetupReturn(): void {
  const trpc = useTRPC();
  const input = useScopeInput();
  const queryClient = useQueryClient();
  const checkoutId = useSearchParams().get('card_setup');
  const router = useRouter();
  const pathname = usePathname();
  const confirm = useMutation(
    trpc.billing.confirmCardSetup.mutationOptions({
      onSuccess: (setup) => {
        if (setup.status === 'saved') toast.success(`Card ${setup.card} saved: it pays the next auto-recharges.`);
        else if (setup.status === 'open') toast.info('The card was not saved: nothing changed.');
        else toast.error('This card page expired: nothing changed.');
        void queryClient.invalidateQueries({ queryKey: trpc.billing.pathKey() });
      },
      onError: (error) => toast.error(error.message),
      onSettled: () => router.replace(pathname),
    }),
  );
  const asked = React.useRef<string | null>(null);
  React.useEffect(() => {
    if (!checkoutId || asked.current === checkoutId) return;
    asked.current = checkoutId;
    confirm.mutate({ ...input, checkoutId });
  }, [checkoutId, input, confirm]);
}
