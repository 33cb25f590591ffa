import type { ConsoleOutputs } from '@/console-client/trpc';

/** The generation kinds and statuses the usage screen charts, in its order. */
export const TYPES = ['render', 'edit', 'decoration', 'upscale'] as const;
export const STATUSES = ['succeeded', 'failed', 'canceled', 'in_progress'] as const;

export type UsageDay = ConsoleOutputs['usage']['get']['days'][number];

/** One CSV line per day: what the charts show, for a spreadsheet. */
export function usageCsv(days: readonly UsageDay[]): string {
  const header = ['date', ...TYPES, ...STATUSES, 'total', 'spend_cents'];
  const lines = days.map((d) => [d.date, ...TYPES.map((t) => d.by_type[t]), ...STATUSES.map((s) => d.by_status[s]), d.total, d.spend_cents].join(','));
  return [header.join(','), ...lines].join('\n') + '\n';
}
