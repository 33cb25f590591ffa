import { z } from 'zod';

/** zod only (the console's forms use these too). */
export const creditPurchaseInput = z.object({
  /** Cents (excluding tax): 5.00 to 10,000.00 EUR. */
  amount: z.number().int().min(500, 'The smallest purchase is €5.00.').max(1_000_000, 'The largest purchase is €10,000.00.'),
});

/** A card set-up's checkout id (Stripe Checkout in setup mode), as the provider's return carries it. */
export const cardSetupIdSchema = z.string().regex(/^cs_[0-9A-Za-z_]{1,200}$/, 'must be a checkout id (cs_…)');
export const purchaseIdSchema = z.string().regex(/^cp_[0-9A-Za-z]{1,64}$/, 'must be a credit purchase id (cp_…)');

/** Auto-recharge as the console's form sends it (cents; the server's rules in auto-recharge.ts). */
export const autoRechargeInput = z.object({
  enabled: z.boolean(),
  threshold: z.number().int().min(0).max(10_000_000).nullable().optional(),
  amount: z.number().int().min(100, 'The smallest recharge is €1.00.').max(10_000_000).nullable().optional(),
});

/** A euro amount as a person types it ("25", "25.50") → cents, checked by `cents`. */
export function eurosAsCents(cents: z.ZodNumber) {
  return z
    .string()
    .trim()
    .regex(/^\d{1,7}([.,]\d{1,2})?$/, 'Enter an amount in euros, e.g. 25 or 25.50.')
    .transform((v) => Math.round(Number(v.replace(',', '.')) * 100))
    .pipe(cents);
}

/** The console's forms: euros typed, cents sent. */
export const addCreditForm = z.object({ amount: eurosAsCents(creditPurchaseInput.shape.amount) });
export const autoRechargeForm = z.object({
  enabled: z.boolean(),
  threshold: eurosAsCents(z.number().int().min(0).max(10_000_000)),
  amount: eurosAsCents(z.number().int().min(100, 'The smallest recharge is €1.00.').max(10_000_000)),
});
