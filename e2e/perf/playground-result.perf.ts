/**
 * Figures for docs/performance.md ("The playground against curl"): how much later the playground
 * shows a result than the same synchronous /v1 request answers. Alternating runs of one upscale
 * (x2 of the same 960×640 JPEG the playground is given): the /v1 call's wall time (multipart,
 * waiting for the end: what curl shows), and in the playground the time from the Run click (the
 * click event in the page) to the first frame where the run's output image is loaded and decoded
 * (creation, the wait on the server, the answer, the image's download; the file was uploaded
 * when chosen). Both include the same engine run, so the difference is the playground's own
 * cost. Goal: the median within 100 ms of the /v1 call's.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { test, v1 } from '../fixtures';
import { databaseUrl } from '../mailbox';
import { FIGURES, type PlaygroundFigures } from './console-figures';
import { chooseFile, chooseKind, openPlayground, ROOM } from '../playground-helpers';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const OUT = path.resolve(import.meta.dirname, '../../test-results/playground-result.json');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

test('playground result latency against the same /v1 request', async ({ page, demo }) => {
  await openPlayground(page, demo.organizationId);
  await chooseKind(page, 'Upscale');
  await chooseFile(page);
  const api: number[] = [];
  const playground: number[] = [];
  const statusShown: number[] = [];
  const requestIds: { api: string; playground: string }[] = [];
  let resources: { name: string; startMs: number; ms: number }[] = [];
  // What the playground's run is made of (the last run's requests, in order).
  let steps: { path: string; startMs: number; ms: number }[] = [];
  let runStarted = 0;
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/trpc/') && !url.pathname.startsWith('/uploads/')) return;
    const timing = request.timing();
    steps.push({ path: url.pathname, startMs: Math.round(timing.startTime - runStarted), ms: Math.round(timing.responseEnd) });
  });
  for (let i = 0; i < RUNS; i++) {
    const form = new FormData();
    form.append('image', new Blob([fs.readFileSync(ROOM)], { type: 'image/jpeg' }), 'room.jpg');
    form.append('scale', 'x2');
    const started = performance.now();
    const res = await v1(demo.baseUrl, demo.testKey, '/v1/upscales', { method: 'POST', body: form });
    api.push(performance.now() - started);
    const apiRequestId = res.requestId;
    if (res.body.status !== 'succeeded') throw new Error(`the /v1 upscale ended ${String(res.body.status)}`);

    const previous = (await page.getByTestId('result').count()) > 0 ? await page.getByTestId('result').getAttribute('data-generation') : null;
    steps = [];
    runStarted = Date.now();
    // Both ends measured in the page, watched from before the click: the click event's time (not
    // Playwright's, whose actionability checks come first), the first frame where the new run's
    // status reads "Succeeded", and the first frame where its output image is loaded and decoded
    // (what the member waits for: the image painted).
    await page.evaluate((before) => {
      const marks: { clicked?: number; status?: number; shown?: number } = {};
      (window as unknown as { runMarks: typeof marks }).runMarks = marks;
      performance.clearResourceTimings();
      document.querySelector('[data-testid="run"]')?.addEventListener('click', (event) => (marks.clicked = event.timeStamp), { once: true, capture: true });
      const check = () => {
        const result = document.querySelector('[data-testid="result"]');
        const id = result?.getAttribute('data-generation') ?? null;
        const status = result?.querySelector('[data-testid="generation-status"]')?.textContent;
        const image = result?.querySelector<HTMLImageElement>('[data-testid="result-image"]');
        if (id !== null && id !== before && status === 'Succeeded') {
          marks.status ??= performance.now();
          if (image?.complete && image.naturalWidth > 0) {
            marks.shown = performance.now();
            return;
          }
        }
        requestAnimationFrame(check);
      };
      check();
    }, previous);
    await page.getByTestId('run').click();
    const marks = await page.waitForFunction(() => {
      const m = (window as unknown as { runMarks: { clicked?: number; status?: number; shown?: number } }).runMarks;
      return m.clicked !== undefined && m.shown !== undefined ? m : null;
    }, undefined, { timeout: 120_000 });
    const { clicked, status, shown } = (await marks.jsonValue()) as { clicked: number; status: number; shown: number };
    playground.push(shown - clicked);
    statusShown.push(status - clicked);
    requestIds.push({ api: apiRequestId, playground: (await page.getByTestId('request-id').textContent()) ?? '' });
    // Where the last run's time went, by the page's own resource timing (relative to the click).
    resources = await page.evaluate((from) => {
      return performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime >= from - 5)
        .map((e) => ({ name: new URL(e.name).pathname.replace(/^(\/files\/).*/, '$1…'), startMs: Math.round(e.startTime - from), ms: Math.round(e.duration) }));
    }, clicked);
  }
  // The server's own time for each request (its request-log line's duration, from receipt to the
  // answer written): what of the difference is the server's, and what the page's.
  await new Promise((resolve) => setTimeout(resolve, 2_000)); // the log's batch is written
  const client = new pg.Client({ connectionString: databaseUrl(demo.dataDir) });
  await client.connect();
  const logged = await client
    .query<{ id: string; durationMs: number }>('select id, "durationMs" from "RequestLog" where id = any($1)', [requestIds.flatMap((r) => [r.api, r.playground])])
    .finally(() => client.end());
  const duration = new Map(logged.rows.map((r) => [r.id, r.durationMs]));
  const serverApi = requestIds.map((r) => duration.get(r.api) ?? NaN);
  const serverPlayground = requestIds.map((r) => duration.get(r.playground) ?? NaN);
  const result: PlaygroundFigures & Record<string, unknown> = {
    measured_at: new Date().toISOString(),
    runs: RUNS,
    api_ms: api.map(Math.round),
    playground_ms: playground.map(Math.round),
    median_api_ms: Math.round(median(api)),
    median_playground_ms: Math.round(median(playground)),
    median_difference_ms: Math.round(median(playground.map((p, i) => p - (api[i] ?? NaN)))),
    server_api_ms: serverApi,
    server_playground_ms: serverPlayground,
    median_server_difference_ms: Math.round(median(serverPlayground.map((p, i) => p - (serverApi[i] ?? NaN)))),
    status_shown_ms: statusShown.map(Math.round),
    median_status_shown_ms: Math.round(median(statusShown)),
    last_run_requests: steps,
    last_run_resources: resources,
  };
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, JSON.stringify(result, null, 2));
  await test.info().attach(FIGURES, { body: JSON.stringify(result), contentType: 'application/json' });
  console.log(JSON.stringify(result, null, 2));
});
