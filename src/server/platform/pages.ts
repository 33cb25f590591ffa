import { z } from 'zod';

/**
 * Cursor pagination for the console's lists: ask for `limit` + 1 rows after the cursor; the
 * extra row only tells that there is a next page, whose cursor is the last row returned.
 */
export const pageInput = z.object({
  limit: z.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(100).optional(),
});
export type PageParams = z.infer<typeof pageInput>;

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export function pageOf<Row, T>(rows: readonly Row[], limit: number, cursorOf: (row: Row) => string, map: (row: Row) => T): Page<T> {
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return { data: data.map(map), next_cursor: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}
