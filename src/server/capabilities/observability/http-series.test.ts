// @node-lines same: arithmetic on prom-client’s own objects, nothing that differs between Node lines
import { describe, expect, it } from 'vitest';
import client from 'prom-client';
import { httpMetrics, routeLabel } from './metrics';

/** The same observations through prom-client's own API (`inc`, `observe`): what observeHttp's direct series must export exactly. */
function reference(registers: client.Registry[]) {
  const labelNames = ['route', 'method', 'status'] as const;
  const requests = new client.Counter({ name: 'roomtone_http_requests_total', help: 'HTTP requests by route, method and status.', labelNames, registers });
  const duration = new client.Histogram({
    name: 'roomtone_http_request_duration_seconds',
    help: 'HTTP request duration by route, method and status.',
    labelNames,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers,
  });
  return (route: string, method: string, status: number, seconds: number) => {
    const labels = { route, method, status: String(status) };
    requests.inc(labels);
    duration.observe(labels, seconds);
  };
}

const OBSERVATIONS: [string, string, number, number][] = [
  ['/v1/generations/{id}', 'GET', 200, 0.0013],
  ['/v1/generations/{id}', 'GET', 200, 0.0021],
  ['/v1/generations', 'GET', 200, 0.004],
  ['/v1/generations/{id}', 'GET', 404, 0.002],
  ['/v1/generations/{id}', 'GET', 200, 0.7],
  ['/v1/renders', 'POST', 202, 301], // above every bucket: only +Inf, sum and count
  ['/v1/generations/{id}', 'GET', 200, 0.002], // on a bound: that bucket
  ['other', 'other', 405, 0],
  ['/v1/generations', 'GET', 200, 0.1 + 0.2],
  ['/v1/generations/{id}', 'GET', 200, 1e-7],
];

describe('HTTP metrics (observeHttp’s series)', () => {
  it('exports exactly what prom-client’s own inc and observe export, as text and as the JSON the primary aggregates', async () => {
    const fast = new client.Registry();
    const slow = new client.Registry();
    const { recorder } = httpMetrics([fast]);
    const observe = reference([slow]);
    for (let round = 0; round < 3; round++) {
      for (const [route, method, status, seconds] of OBSERVATIONS) {
        recorder.observe(route, method, status, seconds * (round + 1));
        observe(route, method, status, seconds * (round + 1));
      }
    }
    expect(await fast.metrics()).toBe(await slow.metrics());
    expect(await fast.getMetricsAsJSON()).toStrictEqual(await slow.getMetricsAsJSON());
    const text = await fast.metrics();
    expect(text).toContain('roomtone_http_requests_total{route="/v1/generations/{id}",method="GET",status="200"} 15');
    expect(text).toContain('roomtone_http_request_duration_seconds_bucket{le="0.002",route="/v1/generations/{id}",method="GET",status="200"} 5');
    expect(text).toContain('roomtone_http_request_duration_seconds_count{route="/v1/renders",method="POST",status="202"} 3');
    expect(text).toContain('roomtone_http_request_duration_seconds_bucket{le="300",route="/v1/renders",method="POST",status="202"} 0');
    const merged = await client.AggregatorRegistry.aggregate([await fast.getMetricsAsJSON(), await fast.getMetricsAsJSON()]).metrics();
    const mergedSlow = await client.AggregatorRegistry.aggregate([await slow.getMetricsAsJSON(), await slow.getMetricsAsJSON()]).metrics();
    expect(merged).toBe(mergedSlow);
  });

  it('counts again from zero after a reset, like prom-client', async () => {
    const fast = new client.Registry();
    const slow = new client.Registry();
    const { recorder, requests, duration } = httpMetrics([fast]);
    const observe = reference([slow]);
    for (const [route, method, status, seconds] of OBSERVATIONS) recorder.observe(route, method, status, seconds);
    requests.reset();
    duration.reset();
    for (const [route, method, status, seconds] of OBSERVATIONS.slice(0, 4)) {
      recorder.observe(route, method, status, seconds);
      observe(route, method, status, seconds);
    }
    expect(await fast.metrics()).toBe(await slow.metrics());
  });

  it('refuses a duration that is not a number as prom-client does', () => {
    const { recorder } = httpMetrics([new client.Registry()]);
    recorder.observe('/v1/generations', 'GET', 200, 0.01);
    expect(() => recorder.observe('/v1/generations', 'GET', 200, Number.NaN)).toThrow(TypeError);
  });

  it('labels the routes as the path templates say', () => {
    const byRegex = (pathname: string) =>
      /^\/v1\/generations\/[^/]+\/cancel$/.test(pathname) ? '/v1/generations/{id}/cancel' : /^\/v1\/generations\/[^/]+$/.test(pathname) ? '/v1/generations/{id}' : null;
    const paths = [
      '/v1/generations', '/v1/generations/', '/v1/generations/gen_1', '/v1/generations/gen_1/', '/v1/generations/gen_1/cancel', '/v1/generations//cancel',
      '/v1/generations/gen_1/cancel/x', '/v1/generations/gen_1/cancelx', '/v1/generations/gen_1/x', '/v1/generations/a/b/cancel', '/v1/generations/cancel',
      '/v1/generations/x\ny', '/v1/generationsx', '/v1/renders', '/files/a/b.webp', '/swatches/1', '/v1/unknown', '/v1', '/elsewhere', '/',
    ];
    for (const pathname of paths) {
      const label = routeLabel(pathname);
      const expected = byRegex(pathname);
      if (expected) expect(label, pathname).toBe(expected);
      else expect(label, pathname).not.toMatch(/^\/v1\/generations\/\{id\}/);
    }
    expect(routeLabel('/v1/generations/gen_1')).toBe('/v1/generations/{id}');
    expect(routeLabel('/v1/generations/gen_1/cancel')).toBe('/v1/generations/{id}/cancel');
    expect(routeLabel('/v1/generations/')).toBe('/v1/other');
    expect(routeLabel('/v1/generations//cancel')).toBe('/v1/other');
    expect(routeLabel('/v1/generations')).toBe('/v1/generations');
  });
});
