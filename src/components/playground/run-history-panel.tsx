'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { ImageOff } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { money } from '@/console-client/format';
import { generationStatusLabel } from '@/components/generations/status-label';
import type { CreationKind } from '@/shared/playground/playground-inputs';
import type { HistoryEntry } from './run-history';

/**
 * The member's recent runs in this browser: input thumbnail, kind, status, cost; each is a link
 * to the playground showing that generation (`?kind=…&gen=…`, for a new tab), which a plain click
 * opens in place with its own before/after.
 */
export function RunHistoryPanel({ entries, shownId, base, kindLabels, onOpen }: { entries: readonly HistoryEntry[]; shownId: string | null; base: string; kindLabels: Record<CreationKind, string>; onOpen: (entry: HistoryEntry) => void }) {
  if (entries.length === 0) return null;
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Recent runs</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-1" data-testid="run-history">
          {entries.map((entry) => (
            <li key={entry.id}>
              <Link
                href={`${base}/playground?kind=${entry.kind}&gen=${entry.id}`}
                aria-current={entry.id === shownId ? 'true' : undefined}
                data-in-page=""
                onClick={(event) => {
                  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
                  event.preventDefault();
                  onOpen(entry);
                }}
                className={cn('flex min-w-0 items-center gap-3 rounded-md p-1.5 text-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none', entry.id === shownId && 'bg-muted')}
              >
                {entry.input ? (
                  // eslint-disable-next-line @next/next/no-img-element -- the member's own input, kept in this browser
                  <img src={entry.input} alt="" width={40} height={40} className="size-10 shrink-0 rounded border object-cover" />
                ) : (
                  <span className="flex size-10 shrink-0 items-center justify-center rounded border bg-muted text-muted-foreground">
                    <ImageOff className="size-4" aria-hidden />
                  </span>
                )}
                <span className="grid min-w-0 flex-1">
                  <span className="font-medium">
                    {kindLabels[entry.kind]} · {generationStatusLabel(entry.status)}
                  </span>
                  <span className="truncate text-xs text-muted-foreground">
                    {entry.costAmount === null ? '' : `${money(entry.costAmount)}${entry.livemode ? '' : ' (test: not charged)'} · `}
                    <time dateTime={new Date(entry.createdAt).toISOString()}>{new Date(entry.createdAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}</time> · {entry.id}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
