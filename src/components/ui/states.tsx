import * as React from 'react';
import { AlertTriangle, Inbox } from 'lucide-react';
import { Button } from './button';
import { Skeleton } from './skeleton';

/** Every screen's three non-data states, alike everywhere. */
export function EmptyState({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-12 text-center" data-state="empty">
      <Inbox className="size-8 text-muted-foreground" aria-hidden />
      <p className="font-medium">{title}</p>
      {children ? <div className="max-w-md text-sm text-muted-foreground">{children}</div> : null}
    </div>
  );
}

export function ErrorState({ error, onRetry }: { error: { message: string } | null; onRetry?: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-2 rounded-lg border border-destructive/40 px-6 py-10 text-center" data-state="error">
      <AlertTriangle className="size-8 text-destructive" aria-hidden />
      <p className="font-medium">Could not load this.</p>
      <p className="text-sm text-muted-foreground">{error?.message ?? 'Unknown error.'}</p>
      {onRetry ? (
        <Button variant="outline" size="sm" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}

export function LoadingRows({ rows = 5, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <div role="status" aria-label={label} className="flex flex-col gap-2" data-state="loading">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-9 w-full" />
      ))}
    </div>
  );
}

/** A filter from the URL that the server's schema refuses is dropped; say which. */
export function IgnoredFilterNotice({ issue }: { issue: { path: PropertyKey[]; message: string } | undefined }) {
  return (
    <p role="alert" className="mb-3 text-sm text-destructive">
      Ignored an invalid filter: {issue?.path.map(String).join('.')} {issue?.message}
    </p>
  );
}
