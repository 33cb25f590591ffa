import { logFiltersInput } from '@/shared/console/console-inputs';
import { unixFromInput } from '@/console-client/format';

export const LOG_FILTER_KEYS = ['statusClass', 'errorCode', 'method', 'path', 'apiKeyId', 'from', 'to', 'requestId'] as const;
export type LogFilterKey = (typeof LOG_FILTER_KEYS)[number];
export const LOG_PAGE_SIZE = 50;

/**
 * The filters of the log's URL as the procedure's input (the URL is user input: what the
 * server's schema refuses is dropped, not sent). Shared by the screen and the page's
 * server-side prefetch, so both ask for the same query.
 */
export function logFilters(filters: Partial<Record<LogFilterKey, string>>) {
  return logFiltersInput.safeParse({ ...filters, from: unixFromInput(filters.from ?? ''), to: unixFromInput(filters.to ?? '') });
}
