import { z } from 'zod';

/**
 * Query parameters arrive as strings. They are validated as strings (never z.coerce: the
 * OpenAPI adapter flips `coerce` on shared schemas, and `?x=false` must not become true).
 */
export function pageLimitParam() {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return 20;
      if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 100) {
        ctx.addIssue({ code: 'custom', message: 'limit must be an integer from 1 to 100.' });
        return z.NEVER;
      }
      return Number(value);
    });
}

/**
 * The id in a resource path (/v1/generations/{id}): any text. An id that is not one of ours
 * names no resource, so it is answered 404 resource_not_found like any unknown id (as Stripe).
 */
export function resourceIdParam() {
  return z.string();
}

/** An id with its prefix, e.g. gen_… (cursors: a malformed `after` is 400 parameter_invalid). */
export function prefixedIdParam(prefix: string) {
  return z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z_]{1,64}$`), `must be an id starting with ${prefix}_`);
}

/** Free text query value: bounded, no control characters. */
export function textQueryParam(max = 100) {
  return z
    .string()
    .max(max)
    .regex(/^[^\p{Cc}]*$/u, 'must not contain control characters');
}
