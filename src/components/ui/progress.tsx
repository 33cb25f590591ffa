'use client';
import * as React from 'react';
import { Progress as ProgressPrimitive } from 'radix-ui';
import { cn } from './cn';

/**
 * A progress bar (Radix Progress: role progressbar, aria-valuenow). `value` 0 to 100, or null
 * when the amount is unknown: an indeterminate bar that moves without claiming a figure.
 */
export function Progress({ value, className, ...props }: Omit<React.ComponentProps<typeof ProgressPrimitive.Root>, 'value'> & { value: number | null }) {
  return (
    <ProgressPrimitive.Root value={value} max={100} className={cn('relative h-2 w-full overflow-hidden rounded-full bg-secondary', className)} {...props}>
      <ProgressPrimitive.Indicator
        className={cn('h-full bg-primary transition-transform duration-500', value === null && 'w-1/3 animate-pulse')}
        style={value === null ? undefined : { transform: `translateX(-${100 - Math.min(100, Math.max(0, value))}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}
