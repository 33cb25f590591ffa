/** Display helpers shared by the screens (money in cents, unix seconds, ids). */
const eur = new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR' });

/** Euro cents as money; a zero is never signed (a sum of refunds and charges can be -0). */
export function money(cents: number): string {
  return eur.format((cents || 0) / 100);
}

export function dateTime(unixSeconds: number | null | undefined): string {
  if (unixSeconds === null || unixSeconds === undefined) return '—';
  return new Date(unixSeconds * 1000).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}

export function dateTimeMs(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 23) + ' UTC';
}

/** A datetime-local input's value (UTC) as unix seconds, or undefined when empty. */
export function unixFromInput(value: string): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value + 'Z');
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
];

/**
 * A moment said relative to `now` ("3 minutes ago", "in 2 hours") within a week, and as a local
 * date and time beyond (relative words stop being easier to read than the date).
 */
export function relativeTime(ms: number, now: number, locale?: string): string {
  let amount = (ms - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return relative.format(Math.round(amount), unit);
    amount /= size;
  }
  return new Date(ms).toLocaleString(locale, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}
