'use client';
import * as React from 'react';
import { FlexRender, tableFeatures, useTable, type ColumnDef, type RowData } from '@tanstack/react-table';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button';
import { cn } from './cn';

const features = tableFeatures({});
export type TableFeaturesOf = typeof features;
export type Column<T extends RowData> = ColumnDef<TableFeaturesOf, T, unknown>;

/** The cursor stack of a paginated list: page 1 has no cursor, each Next pushes the server's. */
export function useCursorPages(resetKey: string) {
  const [stack, setStack] = React.useState<string[]>([]);
  const [key, setKey] = React.useState(resetKey);
  if (key !== resetKey) {
    // Filters changed: back to the first page (state set during render, React's documented pattern).
    setKey(resetKey);
    setStack([]);
  }
  return {
    cursor: stack[stack.length - 1],
    page: stack.length + 1,
    next: (cursor: string) => setStack((s) => [...s, cursor]),
    previous: () => setStack((s) => s.slice(0, -1)),
  };
}

export interface Pagination {
  page: number;
  nextCursor: string | null | undefined;
  next: (cursor: string) => void;
  previous: () => void;
}

/**
 * A table on @tanstack/react-table (headless) with cursor pagination: the server returns a page
 * and `next_cursor`; rows open a detail panel with click or Enter.
 */
export function DataTable<T extends RowData>({
  label,
  columns,
  data,
  rowKey,
  onOpen,
  pagination,
  rowLabel,
  card,
  rowClassName,
}: {
  label: string;
  columns: Column<T>[];
  data: T[];
  rowKey: (row: T) => string;
  onOpen?: (row: T) => void;
  /** What a row's open action is called for assistive technology. */
  rowLabel?: (row: T) => string;
  pagination?: Pagination;
  /** A row as a card on phones (below md) in place of the table, whose columns would not fit. */
  card?: (row: T) => React.ReactNode;
  /** A row's own look (e.g. a revoked key dimmed). */
  rowClassName?: (row: T) => string | undefined;
}) {
  const table = useTable({ features, columns, data, getRowId: (row) => rowKey(row) });
  const frame = React.useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(frame);
  return (
    <div className="flex flex-col gap-3">
      {/* On a narrow screen the table scrolls in its frame: then the frame takes the focus, so a keyboard can scroll it. relative: absolutely placed content (sr-only labels) stays inside the frame instead of widening the page. */}
      {card ? <RowCards label={label} rows={data} rowKey={rowKey} card={card} onOpen={onOpen} rowLabel={rowLabel} rowClassName={rowClassName} /> : null}
      <div
        ref={frame}
        tabIndex={scrolls ? 0 : undefined}
        className={cn(card && 'hidden md:block', 'relative overflow-x-auto rounded-lg border focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none')}
      >
        <table className="w-full caption-bottom text-sm" aria-label={label}>
          <thead className="bg-muted/50">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id} className="border-b">
                {group.headers.map((header) => (
                  <th key={header.id} scope="col" className="h-9 px-3 text-left align-middle text-xs font-medium whitespace-nowrap text-muted-foreground">
                    {header.isPlaceholder ? null : <FlexRender header={header} />}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr
                key={row.id}
                data-row-id={row.id}
                className={cn('border-b last:border-0', rowClassName?.(row.original), onOpen && 'cursor-pointer hover:bg-muted/50 focus-visible:bg-muted focus-visible:outline-none')}
                tabIndex={onOpen ? 0 : undefined}
                aria-label={onOpen && rowLabel ? rowLabel(row.original) : undefined}
                onClick={onOpen ? () => onOpen(row.original) : undefined}
                onKeyDown={
                  onOpen
                    ? (event) => {
                        if (event.key === 'Enter' || event.key === ' ') {
                          event.preventDefault();
                          onOpen(row.original);
                        }
                      }
                    : undefined
                }
              >
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} className="px-3 py-2 align-middle">
                    <FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pagination ? <PageControls pagination={pagination} /> : null}
    </div>
  );
}

/** The rows as a list of cards (phones): each opens like a table row, by click or Enter. */
function RowCards<T>({
  label,
  rows,
  rowKey,
  card,
  onOpen,
  rowLabel,
  rowClassName,
}: {
  label: string;
  rows: T[];
  rowKey: (row: T) => string;
  card: (row: T) => React.ReactNode;
  onOpen?: (row: T) => void;
  rowLabel?: (row: T) => string;
  rowClassName?: (row: T) => string | undefined;
}) {
  return (
    <ul aria-label={label} className="flex flex-col gap-2 md:hidden">
      {rows.map((row) => (
        <li key={rowKey(row)} data-card-id={rowKey(row)} className={cn('min-w-0 rounded-lg border', rowClassName?.(row))}>
          {onOpen ? (
            <button
              type="button"
              className="block w-full min-w-0 rounded-lg p-3 text-left hover:bg-muted/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              aria-label={rowLabel?.(row)}
              onClick={() => onOpen(row)}
            >
              {card(row)}
            </button>
          ) : (
            <div className="p-3">{card(row)}</div>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Whether the element's content is wider than the element (kept up to date as either resizes). */
function useScrollsSideways(ref: React.RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = React.useState(false);
  React.useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}

export function PageControls({ pagination }: { pagination: Pagination }) {
  const { page, nextCursor, next, previous } = pagination;
  return (
    <nav aria-label="Pagination" className="flex items-center justify-end gap-2 text-sm">
      <span className="text-muted-foreground">Page {page}</span>
      <Button variant="outline" size="sm" onClick={previous} disabled={page <= 1}>
        <ChevronLeft aria-hidden /> Previous
      </Button>
      <Button variant="outline" size="sm" onClick={() => nextCursor && next(nextCursor)} disabled={!nextCursor}>
        Next <ChevronRight aria-hidden />
      </Button>
    </nav>
  );
}
