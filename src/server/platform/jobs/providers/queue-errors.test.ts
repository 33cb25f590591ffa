// @node-lines same: our log lines for queue errors (error objects built in the test)
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeError, logQueueError, QUEUE_ERROR_INTERVAL_MS } from './queue-errors';

describe('job queue errors in the log', () => {
  afterEach(() => vi.restoreAllMocks());

  it('names the message and code of an Error, an AggregateError and a plain object', () => {
    expect(describeError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toEqual({ message: 'connect ECONNREFUSED 127.0.0.1:5432', code: 'ECONNREFUSED' });
    const aggregate = new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })], '');
    expect(describeError(aggregate)).toEqual({ message: 'connect ECONNREFUSED ::1:5432', code: 'ECONNREFUSED' });
    expect(describeError({ message: 'terminating connection due to administrator command', code: '57P01' })).toEqual({ message: 'terminating connection due to administrator command', code: '57P01' });
    expect(describeError({ queue: 'x', reason: 'lost' })).toEqual({ message: '{"queue":"x","reason":"lost"}', code: null });
  });

  it('writes one line per distinct cause per interval, then says how many it held back', () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const t0 = 1_000_000_000;
    for (let i = 0; i < 77; i++) logQueueError(refused, t0 + i * 100);
    logQueueError({ message: 'the database system is shutting down', code: '57P03' }, t0 + 200);
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'job queue error', error: 'connect ECONNREFUSED 127.0.0.1:1', code: 'ECONNREFUSED' });
    expect(JSON.parse(lines[1]!)).toMatchObject({ msg: 'job queue error', error: 'the database system is shutting down', code: '57P03' });
    expect(lines.join('')).not.toContain('[object Object]');
    logQueueError(refused, t0 + QUEUE_ERROR_INTERVAL_MS + 1);
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[2]!)).toMatchObject({ error: 'connect ECONNREFUSED 127.0.0.1:1', sameSinceLastLine: 76 });
  });
});
