import { z } from 'zod';

/** zod only (the console's forms use these too). */
export const creditPurchaseInput = z.object({
  /** Cents (excluding tax): 5.00 to 10,000.00 EUR. */
  amount: z.number().int().min(500, 'The smallest purchase is €5.00.').max(1_000_000, 'The largest purchase is €10,000.00.'),
});

export const purchaseIdSchema = z.string().regex(/^cp_[0-9A-Za-z]{1,64}$/, 'must be a credit purchase id (cp_…)');

/** Auto-recharge as the console's form sends it (cents; the server's rules in auto-recharge.ts). */
export const autoRechargeInput = z.object({
  enabled: z.boolean(),
  threshold: z.number().int().min(0).max(10_000_000).nullable().optional(),
  amount: z.number().int().min(100, 'The smallest recharge is €1.00.').max(10_000_000).nullable().optional(),
});
