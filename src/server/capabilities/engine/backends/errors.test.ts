// @node-lines same: our mapping of backend statuses and errors to kinds
import { describe, expect, it } from 'vitest';
import { asBackendError, BackendError, kindForStatus, looksLikeRefusal } from './errors';

describe('backend error mapping', () => {
  it('429, 5xx and timeouts-by-status are transient; other 4xx are not', () => {
    expect([429, 500, 502, 503, 408].map(kindForStatus)).toEqual(['transient', 'transient', 'transient', 'transient', 'transient']);
    expect([400, 401, 403, 404, 422].map(kindForStatus)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
  });

  it('recognises the refusals hosted models send', () => {
    expect(looksLikeRefusal('NSFW content detected. Try running it again, or try a different prompt.')).toBe(true);
    expect(looksLikeRefusal('Your request was rejected as a result of our safety system.')).toBe(true);
    expect(looksLikeRefusal('CUDA out of memory. Tried to allocate 2.00 GiB')).toBe(false);
  });

  it('a network error is transient, unless the deadline has passed', () => {
    const live = new AbortController();
    expect(asBackendError(new TypeError('fetch failed'), live.signal).kind).toBe('transient');
    live.abort();
    expect(asBackendError(new TypeError('fetch failed'), live.signal).kind).toBe('timeout');
    const refused = new BackendError('refused', 'x');
    expect(asBackendError(refused, live.signal)).toBe(refused);
  });
});
