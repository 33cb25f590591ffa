'use client';
import * as React from 'react';
import { Copy } from 'lucide-react';
import { toast } from './toaster';
import { cn } from './cn';

/**
 * An id or URL on one line: cut with an ellipsis when the column is narrower (the whole value on
 * hover), with a copy button beside it. The button does not open the row it sits in.
 */
export function TruncatedText({ text, label, className, children, maxWidth = '16rem' }: { text: string; label: string; className?: string; children?: React.ReactNode; maxWidth?: string }) {
  return (
    <span className={cn('inline-flex max-w-full min-w-0 items-center gap-1', className)} style={{ maxWidth }}>
      <span className="min-w-0 truncate" title={text}>
        {children ?? text}
      </span>
      <button
        type="button"
        aria-label={`Copy ${label}`}
        title={`Copy ${label}`}
        className="inline-flex size-6 shrink-0 items-center justify-center rounded text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        onClick={(event) => {
          event.stopPropagation();
          void navigator.clipboard?.writeText(text).then(
            () => toast.success('Copied'),
            () => toast.error('Could not copy; select the text and copy it.'),
          );
        }}
        onKeyDown={(event) => event.stopPropagation()}
      >
        <Copy aria-hidden className="size-3.5" />
      </button>
    </span>
  );
}
