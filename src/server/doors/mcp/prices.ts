import { priceList, type GenerationType } from '@/server/capabilities/billing/pricing';
import type { Caller } from '@/server/capabilities/access/caller';

/**
 * The price sentence a creation tool's description ends with, for the calling key's
 * organization: the same lines as GET /v1/prices (billing/pricing.ts priceList), so a model
 * can quote before it calls.
 */
export function priceSentence(type: GenerationType, caller: Caller): string {
  const lines = priceList(caller.tier).filter((line) => line.type === type);
  const discount = lines[0]?.discountPercent ?? 0;
  const each = lines.map((line) => `${line.quality ?? line.scale} ${line.amount}`).join(', ');
  const where = caller.mode === 'live' ? 'charged at acceptance' : 'test mode charges nothing; live mode would charge';
  return `Price per image in euro cents for this organization${discount > 0 ? ` (tier discount ${discount}% applied)` : ''}: ${each} (${where}; GET /v1/prices lists them all).`;
}
