import { z } from 'zod';

/**
 * zod 4 keeps no input on its issues, and a missing enum reads like a wrong value. Every issue
 * raised on an absent value (a schema-level message aside) carries this marker instead, so the
 * doors can say the field is required ("image is required."), in JSON and multipart alike.
 */
export const REQUIRED_MARKER = 'is required';

z.config({
  customError: (issue) => (issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value') ? REQUIRED_MARKER : undefined),
});

/** An issue's message for a refusal naming `param`: "<param> is required." for an absent value. */
export function issueMessage(issue: { message: string } | undefined, param: string, fallback: string): string {
  if (!issue) return fallback;
  return issue.message === REQUIRED_MARKER ? `${param} is required.` : issue.message;
}
