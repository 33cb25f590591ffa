'use client';
import * as React from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { RowData } from '@tanstack/react-table';
import { DataTable, type Pagination } from './data-table';
import { ErrorState, LoadingRows } from './states';

/** A page of a list as the console's procedures return it. */
interface ListPage<T> {
  data: T[];
  next_cursor?: string | null;
}

/**
 * A list query shown the same way on every screen: loading rows, the error with a retry, the
 * empty state (on the first page only: a later page that comes back empty still shows its
 * pagination), or the table with its cursor pagination.
 */
export function QueryTable<T extends RowData>({
  query,
  loadingLabel,
  loadingRows,
  empty,
  pages,
  ...table
}: {
  query: UseQueryResult<ListPage<T>, { message: string }>;
  loadingLabel: string;
  loadingRows?: number;
  /** Usually an `EmptyState`. */
  empty: React.ReactNode;
  /** From `useCursorPages`; without it the list has a single page. */
  pages?: Omit<Pagination, 'nextCursor'>;
} & Omit<React.ComponentProps<typeof DataTable<T>>, 'data' | 'pagination'>) {
  if (query.isPending) return <LoadingRows rows={loadingRows} label={loadingLabel} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.data.length === 0 && (pages?.page ?? 1) === 1) return <>{empty}</>;
  return <DataTable {...table} data={query.data.data} pagination={pages ? { ...pages, nextCursor: query.data.next_cursor } : undefined} />;
}
