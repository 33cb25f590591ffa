'use client';

/** Refusals keyed by the spec's `param` (image, mask, layers[0].color…), from the server or the same schema run in the browser. */
export type FieldErrors = Record<string, { code: string; message: string }>;

/** The error naming this field, with its code, right under the field. */
export function FieldError({ errors, param }: { errors: FieldErrors; param: string }) {
  const error = errors[param];
  if (!error) return null;
  return (
    <p role="alert" data-testid={`error-${param}`} className="text-xs font-medium text-destructive">
      <code>{error.code}</code> {error.message}
    </p>
  );
}
