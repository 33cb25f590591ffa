'use client';
import * as React from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { addCreditForm } from '@/shared/console/console-inputs';
import { useTRPC } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';
import { money } from '@/console-client/format';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { FormError, TextField } from '@/components/ui/form';
import { toast } from '@/components/ui/toaster';

type AddCreditValues = z.input<typeof addCreditForm>;

/**
 * "Add credit": with Stripe the browser goes to Stripe's payment page and comes back to
 * Billing with ?purchase=…; with the manual provider it files a request that the operator
 * approves (the balance does not move before).
 */
export function AddCreditDialog({ mode }: { mode: 'checkout' | 'operator_approval' }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const queryClient = useQueryClient();
  const [open, setOpen] = React.useState(false);
  const form = useForm<AddCreditValues, unknown, z.output<typeof addCreditForm>>({ resolver: zodResolver(addCreditForm), defaultValues: { amount: '50' } });
  const add = useMutation(
    trpc.billing.addCredit.mutationOptions({
      onSuccess: (started) => {
        if (started.checkoutUrl) {
          window.location.assign(started.checkoutUrl);
          return;
        }
        toast.success(`Request for ${money(started.purchase.amount_cents)} sent: the credit is added once the operator approves it.`);
        setOpen(false);
        void queryClient.invalidateQueries({ queryKey: trpc.billing.pathKey() });
      },
    }),
  );
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>Add credit</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add credit</DialogTitle>
          <DialogDescription>
            {mode === 'checkout'
              ? 'You pay on Stripe’s secure page and come back here. The card you pay with also pays auto-recharges.'
              : 'This installation takes no payment (manual provider): your request waits for the operator of this Roomtone to approve it, and the balance changes only then.'}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={form.handleSubmit((values) => add.mutate({ ...input, amount: values.amount }))} className="flex flex-col gap-4" noValidate>
          <FormError message={add.error?.message} />
          <TextField control={form.control} name="amount" label="Amount (EUR)" inputMode="decimal" description="From €5.00 to €10,000.00, excluding tax." />
          <DialogFooter>
            <Button type="submit" disabled={add.isPending || add.isSuccess}>
              {mode === 'checkout' ? 'Continue to payment' : 'Request credit'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Back from the provider's page (?purchase=cp_…, &canceled=1 when the buyer gave up): ask the
 * server to confirm with the provider now, say what happened, and clean the URL.
 */
export function usePurchaseReturn(): void {
  const trpc = useTRPC();
  const input = useScopeInput();
  const queryClient = useQueryClient();
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const purchaseId = params.get('purchase');
  const canceled = params.get('canceled') === '1';
  const confirm = useMutation(
    trpc.billing.confirmPurchase.mutationOptions({
      onSuccess: (purchase) => {
        if (purchase.status === 'paid') toast.success(`${money(purchase.amount_cents)} added to your balance.`);
        else if (canceled) toast.info('Payment canceled: nothing was charged.');
        else if (purchase.status === 'pending') toast.info('Payment received by Stripe; the credit appears as soon as Stripe confirms it.');
        else toast.error('This checkout expired: nothing was charged.');
        void queryClient.invalidateQueries({ queryKey: trpc.billing.pathKey() });
      },
      onError: (error) => toast.error(error.message),
      onSettled: () => router.replace(pathname),
    }),
  );
  const asked = React.useRef<string | null>(null);
  React.useEffect(() => {
    if (!purchaseId || asked.current === purchaseId) return;
    asked.current = purchaseId;
    confirm.mutate({ ...input, purchaseId });
  }, [purchaseId, input, confirm]);
}
