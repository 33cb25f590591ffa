import type { PaymentProvider } from './port';

/**
 * The zero-setup provider: no money is taken, so nothing is credited without the operator.
 * A console purchase or an auto-recharge becomes a request the operator approves with the CLI
 * (credit-purchases.ts); `charge` is never asked (the auto-recharge job files the request
 * instead) and refuses if it were. It answers at once, so a lookup finds nothing.
 */
export function manualProvider(): PaymentProvider {
  return {
    name: 'manual',
    approvalOnly: true,
    async charge() {
      return { status: 'refused', code: 'operator_approval_required', message: 'The manual payment provider takes no money: credit needs the operator\'s approval.' };
    },
    async lookup() {
      return { status: 'not_found' };
    },
  };
}
