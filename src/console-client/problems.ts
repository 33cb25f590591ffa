import { TRPCClientError } from '@trpc/client';
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from '@/shared/images/image-limits';

/**
 * A refusal as the console shows it: one sentence a person reads first, and the API's code and
 * request id behind a "Details" disclosure for developers. The same code in the browser (a file
 * judged the moment it is chosen) and from the server reads the same.
 */
export interface Problem {
  /** The spec's error code (image_too_large, parameter_invalid…). */
  code: string;
  /** The API's message, shown in the details when the sentence differs. */
  message: string;
  requestId?: string;
  /** Where the refusal was decided: the browser's check says so in the details. */
  checkedInBrowser?: boolean;
}

/** Refusals keyed by the spec's `param` (image, mask, layers[0].color…); `request` for the form as a whole. */
export type FieldErrors = Record<string, Problem>;

const millions = (n: number) => `${Math.round(n / 1_000_000)} million`;

/** What the field holds, as a sentence names it. */
function thing(param: string | undefined): string {
  if (param === 'mask') return 'mask';
  if (param?.startsWith('layers[')) return 'element image';
  return 'image';
}

function sentenceOf(code: string, message: string, param: string | undefined): string {
  const what = thing(param);
  switch (code) {
    case 'image_too_large':
      return `This ${what} is over 10 MB.`;
    case 'unsupported_image_type':
      return `This file is not a JPEG, PNG or WebP image.`;
    case 'image_dimensions_invalid': {
      const size = /(\d+)×(\d+)/.exec(message);
      const limit = `${MAX_IMAGE_SIDE.toLocaleString('en')} pixels a side and ${millions(MAX_IMAGE_PIXELS)} pixels in all`;
      return size ? `This ${what} is ${size[1]}×${size[2]} pixels: the limit is ${limit}.` : `This ${what} is too large: the limit is ${limit}.`;
    }
    case 'image_unreadable':
      return `This ${what} could not be read: the file is damaged or incomplete.`;
    case 'generation_rate_limit_exceeded':
      return 'No generations are left for now: the quota frees up as the minute and the hour slide on.';
    case 'rate_limit_exceeded':
      return 'Too many requests this minute: try again in a few seconds.';
    case 'insufficient_balance':
      return 'The balance is too low for this generation: add credit on the Billing screen.';
    case 'internal_error':
    case 'service_unavailable':
      return 'Something went wrong on our side. Nothing was charged; try again in a moment.';
    default:
      return /[.!?]$/.test(message) ? message : `${message}.`;
  }
}

/** The sentence a person reads for this refusal of `param`. */
export function problemSentence(problem: Problem, param?: string): string {
  return sentenceOf(problem.code, problem.message, param);
}

/** A refusal from a console procedure or an upload (the spec's envelope), or null for anything else. */
export function problemOf(error: unknown): (Problem & { param?: string }) | null {
  if (error instanceof UploadRefused) return { ...error.problem, ...(error.param ? { param: error.param } : {}) };
  if (error instanceof TRPCClientError) {
    const data = (error as TRPCClientError<never>).data as { apiError?: { code: string; message: string; param?: string; request_id?: string } } | undefined;
    const api = data?.apiError;
    if (!api) return { code: 'request_failed', message: error.message };
    return { code: api.code, message: api.message, ...(api.param ? { param: api.param } : {}), ...(api.request_id ? { requestId: api.request_id } : {}) };
  }
  if (error instanceof Error) return { code: 'request_failed', message: error.message };
  return null;
}

/** An upload (PUT to an upload URL) the API refused, with its envelope and request id. */
export class UploadRefused extends Error {
  constructor(
    readonly problem: Problem,
    readonly param: string | undefined,
  ) {
    super(problem.message);
    this.name = 'UploadRefused';
  }
}
