// @node-lines same: our mapping of error codes to HTTP statuses and envelopes
import { describe, expect, it } from 'vitest';

import { DomainError, invalidParam, notFound } from '@/server/platform/errors';
import { apiErrorFromUnknown, httpStatusOf, toHttpError } from './errors';

describe('code → HTTP status, once at the doors', () => {
  it.each([
    ['parameter_invalid', 400],
    ['mask_colors_mismatch', 400],
    ['api_key_invalid', 401],
    ['insufficient_balance', 402],
    ['monthly_limit_reached', 402],
    ['api_key_spend_cap_reached', 402],
    ['api_key_ip_not_allowed', 403],
    ['permission_denied', 403],
    ['resource_not_found', 404],
    ['invitation_invalid', 404],
    ['invitation_used', 409],
    ['generation_not_cancelable', 409],
    ['image_too_large', 413],
    ['unsupported_image_type', 415],
    ['content_type_unsupported', 415],
    ['expectation_unsupported', 417],
    ['content_policy_violation', 422],
    ['generation_rate_limit_exceeded', 429],
    ['service_unavailable', 503],
    ['overloaded', 503],
  ] as const)('%s answers %i', (code, status) => {
    expect(httpStatusOf(code)).toBe(status);
  });

  it('renders a domain error with its status, envelope and Retry-After in whole seconds', () => {
    const error = toHttpError(new DomainError('generation_rate_limit_exceeded', 'Generation quota exceeded.', { retryAfterSeconds: 12.2 }));
    expect(error.status).toBe(429);
    expect(error.headers).toEqual({ 'retry-after': '13' });
    expect(error.toBody()).toEqual({ error: { code: 'generation_rate_limit_exceeded', message: 'Generation quota exceeded.' } });
  });

  it('keeps the param and adds no header when there is no delay', () => {
    const error = toHttpError(invalidParam('limit', 'limit must be 1 to 100.'));
    expect({ status: error.status, headers: error.headers, body: error.toBody() }).toEqual({
      status: 400,
      headers: {},
      body: { error: { code: 'parameter_invalid', message: 'limit must be 1 to 100.', param: 'limit' } },
    });
  });

  it('an error is recognised by its class, not its name: a look-alike is an internal error', () => {
    const lookalike = Object.assign(new Error('No such generation.'), { name: 'DomainError', code: 'resource_not_found' as const, param: 'id' });
    const error = apiErrorFromUnknown(lookalike);
    expect({ status: error.status, code: error.code }).toEqual({ status: 500, code: 'internal_error' });
  });

  it('a domain error is the same envelope in the CLI (toBody) as at the doors', () => {
    const error = notFound('No organization org_x.', 'org');
    expect(error.toBody()).toEqual(toHttpError(error).toBody());
  });
});
