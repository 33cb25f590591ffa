import type { PaymentProvider } from './port';

/**
 * The zero-setup provider, for development: every recharge succeeds and no money is taken.
 * Its reference says so, and the recharge's ledger row is described as such. It answers at once,
 * so an attempt it never answered was never paid: a lookup finds nothing.
 */
export function manualProvider(): PaymentProvider {
  return {
    name: 'manual',
    async charge(payment) {
      return { status: 'succeeded', reference: `manual:${payment.attemptId}` };
    },
    async lookup() {
      return { status: 'not_found' };
    },
  };
}
