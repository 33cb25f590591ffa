'use client';
import * as React from 'react';
import { RadioGroup as RadioGroupPrimitive } from 'radix-ui';
import { cn } from './cn';

/**
 * A single choice among options, with the WAI-ARIA radio group pattern (Radix): one tab stop,
 * arrow keys move the choice, every option named. Styled by the caller (segments, swatches).
 * Callers choose on focus too (`onFocus`): Radix checks an item focused by an arrow only while
 * the key is still down, and a quick tap (or a scripted one) can be up before the deferred
 * focus lands; only the checked item is a tab stop, so focus otherwise comes from a click.
 */
export function RadioGroup({ className, ...props }: React.ComponentProps<typeof RadioGroupPrimitive.Root>) {
  return <RadioGroupPrimitive.Root className={cn('flex', className)} {...props} />;
}

export function RadioGroupItem({ className, ...props }: React.ComponentProps<typeof RadioGroupPrimitive.Item>) {
  return <RadioGroupPrimitive.Item className={cn('focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1', className)} {...props} />;
}

/** A segmented control (the look of tabs) for a few short options. */
export function SegmentedRadioGroup<T extends string>({
  label,
  value,
  onValueChange,
  options,
  className,
}: {
  label: string;
  value: T;
  onValueChange: (value: T) => void;
  options: readonly { value: T; label: string }[];
  className?: string;
}) {
  return (
    <RadioGroup
      aria-label={label}
      value={value}
      onValueChange={(v) => onValueChange(v as T)}
      orientation="horizontal"
      loop
      className={cn('inline-flex max-w-full flex-wrap items-center gap-1 rounded-lg bg-muted p-1 text-muted-foreground', className)}
    >
      {options.map((o) => (
        <RadioGroupItem
          key={o.value}
          value={o.value}
          onFocus={() => o.value !== value && onValueChange(o.value)}
          className="rounded-md px-3 py-1 text-sm font-medium data-[state=checked]:bg-background data-[state=checked]:text-foreground data-[state=checked]:shadow-sm"
        >
          {o.label}
        </RadioGroupItem>
      ))}
    </RadioGroup>
  );
}
