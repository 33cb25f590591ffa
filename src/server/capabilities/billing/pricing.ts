/**
 * Tiers and prices as data. The "Tiers and prices" tables of docs/api.md are this file; change both
 * together. Amounts are euro cents excluding tax.
 */
export type GenerationType = 'render' | 'edit' | 'decoration' | 'upscale';
export type Quality = '1k' | '2k' | '4k' | '8k';
export type Scale = 'x2' | 'x4';

export interface Tier {
  tier: number;
  name: string;
  requestsPerMinute: number;
  generationsPerMinute: number;
  generationsPerHour: number;
  discountPercent: number;
  /** Default monthly spend limit (live charges net of refunds, per calendar month UTC). */
  monthlyLimitCents: number;
}

export const TIERS: readonly Tier[] = [
  { tier: 1, name: 'Starter', requestsPerMinute: 120, generationsPerMinute: 10, generationsPerHour: 200, discountPercent: 0, monthlyLimitCents: 50_000 },
  { tier: 2, name: 'Growth', requestsPerMinute: 600, generationsPerMinute: 30, generationsPerHour: 1_000, discountPercent: 10, monthlyLimitCents: 500_000 },
  { tier: 3, name: 'Scale', requestsPerMinute: 1_500, generationsPerMinute: 120, generationsPerHour: 5_000, discountPercent: 20, monthlyLimitCents: 2_500_000 },
  { tier: 4, name: 'Enterprise', requestsPerMinute: 6_000, generationsPerMinute: 300, generationsPerHour: 15_000, discountPercent: 30, monthlyLimitCents: 10_000_000 },
  // Internal tier for load tests and benchmarks on your own machines; never sold.
  { tier: 9, name: 'Internal (load tests)', requestsPerMinute: 10_000_000, generationsPerMinute: 100_000, generationsPerHour: 1_000_000, discountPercent: 0, monthlyLimitCents: 1_000_000_000 },
];

export function tierOf(tier: number): Tier {
  const found = TIERS.find((t) => t.tier === tier);
  if (!found) throw new Error(`unknown tier ${tier}`);
  return found;
}

export function isKnownTier(tier: number): boolean {
  return TIERS.some((t) => t.tier === tier);
}

/** List prices per image before the tier discount. */
export const QUALITY_PRICES: Record<Exclude<GenerationType, 'upscale'>, Record<Quality, number>> = {
  render: { '1k': 20, '2k': 30, '4k': 50, '8k': 90 },
  edit: { '1k': 15, '2k': 25, '4k': 40, '8k': 75 },
  decoration: { '1k': 20, '2k': 30, '4k': 50, '8k': 90 },
};
export const UPSCALE_PRICES: Record<Scale, number> = { x2: 10, x4: 20 };

export interface Price {
  amount: number;
  listAmount: number;
  discountPercent: number;
}

/** Price fixed at acceptance: list price less the tier discount, rounded to the nearest cent. */
export function priceFor(
  type: GenerationType,
  setting: { quality?: Quality | null; scale?: Scale | null },
  tier: number,
): Price {
  let listAmount: number;
  if (type === 'upscale') {
    if (!setting.scale) throw new Error('upscale price needs a scale');
    listAmount = UPSCALE_PRICES[setting.scale];
  } else {
    if (!setting.quality) throw new Error(`${type} price needs a quality`);
    listAmount = QUALITY_PRICES[type][setting.quality];
  }
  const { discountPercent } = tierOf(tier);
  const amount = Math.round((listAmount * (100 - discountPercent)) / 100);
  return { amount, listAmount, discountPercent };
}

export const QUALITIES: readonly Quality[] = ['1k', '2k', '4k', '8k'];
export const SCALES: readonly Scale[] = ['x2', 'x4'];

/** One line of a price list: what a generation of `type` at `quality` or `scale` costs (priceFor). */
export interface PriceLine extends Price {
  type: GenerationType;
  quality: Quality | null;
  scale: Scale | null;
}

/**
 * Every price of a tier, each from priceFor, so the list (GET /v1/prices, the MCP tool
 * descriptions) is the `cost.amount` a creation accepted now gets.
 */
export function priceList(tier: number): PriceLine[] {
  const lines: PriceLine[] = [];
  for (const type of ['render', 'edit', 'decoration'] as const) {
    for (const quality of QUALITIES) lines.push({ type, quality, scale: null, ...priceFor(type, { quality }, tier) });
  }
  for (const scale of SCALES) lines.push({ type: 'upscale', quality: null, scale, ...priceFor('upscale', { scale }, tier) });
  return lines;
}
