/**
 * Typed shim for the part of autocannon 8's programmatic API the benchmarks use (the package
 * ships no types and @types/autocannon is not installed).
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p0_001: number;
    p0_01: number;
    p0_1: number;
    p1: number;
    p2_5: number;
    p10: number;
    p25: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    p99_99: number;
    p99_999: number;
  }

  export interface RequestHistogram extends Histogram {
    /** Requests sent (completed are `total`). */
    sent: number;
  }

  export interface Result {
    title?: string;
    url: string;
    duration: number;
    start: Date;
    finish: Date;
    connections: number;
    pipelining: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    /** Milliseconds; recorded at 1 ms resolution. */
    latency: Histogram & { totalCount: number };
    /** Per-second samples; `total` is the number of completed requests. */
    requests: RequestHistogram;
    throughput: Histogram;
  }

  export interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  export interface Client extends EventEmitter {
    setHeaders(headers: Record<string, string>): void;
    setBody(body: string | Buffer): void;
    setRequests(requests: RequestSpec[]): void;
  }

  export interface Options {
    url: string;
    title?: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    timeout?: number;
    workers?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    requests?: RequestSpec[];
    setupClient?: (client: Client) => void;
    overallRate?: number;
    connectionRate?: number;
    ignoreCoordinatedOmission?: boolean;
    bailout?: number;
    excludeErrorStats?: boolean;
    skipAggregateResult?: boolean;
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
