import { BackendError } from './errors';

/** A generation that threw → the spec's error object (both are refunded). */
export function failureFor(error: unknown): { code: 'generation_failed' | 'content_policy_violation'; message: string } {
  if (error instanceof BackendError && error.kind === 'refused') {
    return { code: 'content_policy_violation', message: 'The model refused this request under its content policy. You were not charged; do not resend the same request.' };
  }
  return { code: 'generation_failed', message: 'The generation failed. You were not charged; start again later.' };
}

/** The worker stopped mid-call: not a failure of the generation (the job is retried). */
export function isInterruption(error: unknown): boolean {
  return error instanceof BackendError && error.kind === 'interrupted';
}
