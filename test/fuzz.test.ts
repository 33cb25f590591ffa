// @node-lines same: a seeded corpus through every route: our answers; raw HTTP parsing runs under both lines in test/hostile-input.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * As a rule: a seeded corpus of hostile requests over every route — odd methods,
 * Host headers, request targets, paths, query strings, headers, malformed JSON and multipart,
 * hostile image URLs — through the real server over raw sockets. No request may get a 5xx or
 * go unanswered, and the server must stay healthy. Bounded: FUZZ_COUNT requests (default 300),
 * FUZZ_SEED (default fixed, so a failure replays); the seed is in every failure message.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, createTestOrg, testIp } from './support';
import { rawRequest } from './raw-http';
import { fuzzCase, prng } from './helpers/fuzz-corpus';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const COUNT = Number(process.env.FUZZ_COUNT ?? 300);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 6);
// A hang is forever; this bound only has to tell one from a slow answer on a loaded machine.
const ANSWER_WITHIN_MS = 60_000;

describe(`fuzz: ${COUNT} hostile requests (seed ${SEED})`, () => {
  let keys: string[] = [];
  const ip = testIp();

  beforeAll(async () => {
    const org = await createTestOrg();
    keys = [org.testKey, org.testKey, org.testKey];
  });

  it('no 5xx, no request left unanswered, and the server stays healthy', async () => {
    const rand = prng(SEED);
    const all = Array.from({ length: COUNT }, () => fuzzCase(rand, baseUrl, keys, ip));
    // FUZZ_ONLY=12,40: replay only those cases of the seed (to debug a failure).
    const only = process.env.FUZZ_ONLY?.split(',').map(Number);
    const cases = only ? all.filter((_, i) => only.includes(i)) : all;
    const failures: string[] = [];
    let next = 0;
    const statuses = new Map<number, number>();
    const durations: [number, number][] = [];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < cases.length) {
          const index = only ? only[next++]! : next++;
          const c = all[index]!;
          const started = performance.now();
          const res = await rawRequest(baseUrl, c.bytes, ANSWER_WITHIN_MS);
          durations.push([performance.now() - started, index]);
          if (!res) failures.push(`#${index} no answer within ${ANSWER_WITHIN_MS} ms: ${only ? JSON.stringify(c.bytes.slice(0, 2000)) : c.label}`);
          else {
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            if (!(res.status >= 200 && res.status < 500)) failures.push(`#${index} ${res.status} ${res.body.slice(0, 200)}: ${c.label}`);
            else if (res.status >= 400 && !res.headers['request-id']) failures.push(`#${index} ${res.status} without request-id: ${c.label}`);
          }
        }
      }),
    );
    if (only) console.log(durations.map(([ms, i]) => `#${i} ${Math.round(ms)} ms`).join('\n'));
    const slowest = durations.sort((a, b) => b[0] - a[0]).slice(0, 5).map(([ms, i]) => `#${i} ${Math.round(ms)} ms: ${all[i]!.label.slice(0, 160)}`);
    expect(failures, `seed ${SEED}: ${failures.length} failures; slowest:\n${slowest.join('\n')}`).toEqual([]);
    if (!only) {
      // The corpus reaches past the doors: both refusals and successes were seen.
      expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true);
      expect([...statuses.keys()].filter((s) => s >= 400).length).toBeGreaterThan(4);
    }
    expect((await api('/healthz')).status).toBe(200);
    expect((await api('/v1/styles', { key: keys[0]!, ip: testIp() })).status).toBe(200);
  }, 120_000);
});
