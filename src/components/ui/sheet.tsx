'use client';
import * as React from 'react';
import { Dialog as SheetPrimitive } from 'radix-ui';
import { X } from 'lucide-react';
import { cn } from './cn';

/**
 * A panel sliding in from a side (a modal dialog: focus trapped, Esc closes): detail panels from
 * the right, the console's navigation drawer from the left on small screens.
 */
export function Sheet({
  open,
  onOpenChange,
  title,
  description,
  children,
  className,
  side = 'right',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: React.ReactNode;
  description?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
  side?: 'left' | 'right';
}) {
  return (
    <SheetPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <SheetPrimitive.Portal>
        <SheetPrimitive.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <SheetPrimitive.Content
          className={cn(
            'fixed inset-y-0 z-50 flex w-full max-w-xl min-w-0 flex-col gap-4 overflow-y-auto bg-background p-4 shadow-lg sm:p-6',
            side === 'right' ? 'right-0 border-l' : 'left-0 border-r',
            className,
          )}
        >
          <div className="flex items-start justify-between gap-4">
            <div className="flex min-w-0 flex-col gap-1">
              <SheetPrimitive.Title className="text-lg font-semibold break-all">{title}</SheetPrimitive.Title>
              <SheetPrimitive.Description className="text-sm text-muted-foreground">{description ?? 'Details'}</SheetPrimitive.Description>
            </div>
            <SheetPrimitive.Close className="rounded-sm opacity-70 hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
              <X className="size-4" aria-hidden />
              <span className="sr-only">Close</span>
            </SheetPrimitive.Close>
          </div>
          {children}
        </SheetPrimitive.Content>
      </SheetPrimitive.Portal>
    </SheetPrimitive.Root>
  );
}
