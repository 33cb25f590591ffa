import { z } from 'zod';
import { eurosAsCents } from './purchase-inputs';

/** zod only (the console's form uses these too; the server's rules are in billing/spend-alerts.ts). */
export const MAX_SPEND_ALERT_PERCENTS = 10;

export const spendAlertSettingsInput = z.object({
  /** Percents of the monthly limit, each mailed once a month when the month's spend reaches it. */
  percents: z
    .array(z.number().int().min(1, 'A threshold is at least 1 %.').max(100, 'A threshold is at most 100 % (the limit refuses past it).'))
    .max(MAX_SPEND_ALERT_PERCENTS, `At most ${MAX_SPEND_ALERT_PERCENTS} thresholds.`)
    .refine((list) => new Set(list).size === list.length, 'Each threshold once.'),
  /** Cents: a live balance that falls below it is mailed once a month; null turns it off. */
  balanceFloorCents: z.number().int().min(1, 'The floor is at least €0.01.').max(10_000_000).nullable(),
});
export type SpendAlertSettingsInput = z.infer<typeof spendAlertSettingsInput>;

const floorCents = spendAlertSettingsInput.shape.balanceFloorCents.unwrap();

/** The console's form: percents typed as "50, 80, 100", the floor in euros (empty: off). */
export const spendAlertsForm = z.object({
  percents: z
    .string()
    .trim()
    .regex(/^[\d\s,;%]*$/, 'Enter percents such as 50, 80, 100.')
    .transform((text) => text.split(/[\s,;%]+/).filter(Boolean).map(Number))
    // The message on the field itself (a piped array schema would put it on one of its items).
    .superRefine((list, ctx) => {
      const checked = spendAlertSettingsInput.shape.percents.safeParse(list);
      if (!checked.success) ctx.addIssue({ code: 'custom', message: checked.error.issues[0]?.message ?? 'Invalid thresholds.' });
    }),
  balanceFloor: z
    .string()
    .trim()
    .transform((text, ctx) => {
      if (text === '') return null;
      const cents = eurosAsCents(floorCents).safeParse(text);
      if (cents.success) return cents.data;
      ctx.addIssue({ code: 'custom', message: cents.error.issues[0]?.message ?? 'Enter an amount in euros.' });
      return z.NEVER;
    }),
});
