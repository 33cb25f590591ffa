'use client';
import * as React from 'react';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { Checkbox } from './checkbox';
import { Label } from './label';
import { Input } from './input';
import { cn } from './cn';

/**
 * A labelled text field bound to a react-hook-form control: label, input, description and the
 * field's error (announced, and linked with aria-describedby / aria-invalid).
 */
export function TextField<T extends FieldValues, Submitted = T>({
  control,
  name,
  label,
  description,
  className,
  ...inputProps
}: {
  /** Any form over T, also one whose resolver transforms the values (euros typed, cents submitted). */
  control: Control<T, unknown, Submitted>;
  name: FieldPath<T>;
  label: string;
  description?: string;
  className?: string;
} & Omit<React.ComponentProps<'input'>, 'name' | 'value' | 'onChange' | 'onBlur' | 'defaultValue'>) {
  const id = React.useId();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const describedBy = [description ? `${id}-description` : null, fieldState.error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
        return (
          <div className={cn('grid gap-1.5', className)}>
            <Label htmlFor={id}>{label}</Label>
            <Input id={id} {...inputProps} {...field} value={(field.value as string | undefined) ?? ''} aria-invalid={fieldState.error ? true : undefined} aria-describedby={describedBy} />
            {description ? (
              <p id={`${id}-description`} className="text-xs text-muted-foreground">
                {description}
              </p>
            ) : null}
            {fieldState.error ? (
              <p id={`${id}-error`} role="alert" className="text-xs font-medium text-destructive">
                {fieldState.error.message}
              </p>
            ) : null}
          </div>
        );
      }}
    />
  );
}

/** The form-level error (a refusal from the server), announced. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
      {message}
    </p>
  );
}

/**
 * A group of checkboxes bound to a react-hook-form array field (permissions, event types): a
 * fieldset with its legend, one labelled checkbox per option, and the field's error (announced,
 * and linked with aria-describedby).
 */
export function CheckboxGroupField<T extends FieldValues>({
  control,
  name,
  legend,
  options,
  descriptions,
  idPrefix,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  legend: string;
  options: readonly string[];
  /** What each option means, shown under it and linked to its checkbox. */
  descriptions?: Readonly<Record<string, string>>;
  /** Each checkbox's id is `${idPrefix}-${option}`. */
  idPrefix: string;
}) {
  const errorId = `${idPrefix}-error`;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const value = field.value as string[];
        return (
          <fieldset className="flex min-w-0 flex-col gap-2" aria-describedby={fieldState.error ? errorId : undefined}>
            <legend className="mb-1 text-sm font-medium">{legend}</legend>
            {options.map((option) => {
              const id = `${idPrefix}-${option}`;
              const description = descriptions?.[option];
              return (
                <div key={option} className="flex items-start gap-2">
                  <Checkbox
                    id={id}
                    className="mt-0.5"
                    aria-describedby={description ? `${id}-description` : undefined}
                    checked={value.includes(option)}
                    onCheckedChange={(v) => field.onChange(v === true ? [...value, option] : value.filter((o) => o !== option))}
                  />
                  <div className="grid min-w-0 gap-0.5">
                    <Label htmlFor={id} className="font-mono font-normal">
                      {option}
                    </Label>
                    {description ? (
                      <p id={`${id}-description`} className="text-xs text-muted-foreground">
                        {description}
                      </p>
                    ) : null}
                  </div>
                </div>
              );
            })}
            {fieldState.error ? (
              <p id={errorId} role="alert" className="text-xs font-medium text-destructive">
                {fieldState.error.message}
              </p>
            ) : null}
          </fieldset>
        );
      }}
    />
  );
}
