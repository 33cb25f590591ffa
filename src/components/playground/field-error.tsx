'use client';
import { ProblemText } from '@/components/ui/problem-text';
import type { FieldErrors } from '@/console-client/problems';

export type { FieldErrors } from '@/console-client/problems';

/** The refusal naming this field, as a sentence right under the field (code and request id behind "Details"). */
export function FieldError({ errors, param }: { errors: FieldErrors; param: string }) {
  const error = errors[param];
  if (!error) return null;
  return <ProblemText problem={error} param={param} testId={`error-${param}`} />;
}
