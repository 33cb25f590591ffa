/**
 * The generation detail sheet follows a running generation the way the playground does: reads
 * that wait on the server for its end (`playground.follow` with `waitMs`, woken by the worker's
 * end notification), never a timed poll of `generations.get`. A slow generation (its
 * organization's engine runs held: holdEngineRuns) is opened in the sheet, watched for a few
 * seconds, then let go: the sheet shows it succeeded, brought by a read that was waiting.
 */
import { backgroundUpscale, expect, holdEngineRuns, test, v1 } from './fixtures';

test('the detail sheet of a slow generation reaches succeeded by reads that wait on the server, without polling', async ({ page, demo }) => {
  const gets: number[] = [];
  // `waited`: how long the browser waited for the answer's first byte (its own timing: the test
  // process may learn of a request late on a loaded machine), null while it waits.
  const follows: { started: number; ended: number | null; waitMs: number; waited: () => number | null }[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/trpc/')) return;
    // A batch names its procedures joined by commas.
    const procedures = url.pathname.slice('/api/trpc/'.length).split(',');
    if (procedures.includes('generations.get')) gets.push(Date.now());
    if (procedures.includes('playground.follow')) {
      const input = JSON.parse(url.searchParams.get('input') ?? '{}') as { waitMs?: number };
      const entry = {
        started: Date.now(),
        ended: null as number | null,
        waitMs: input.waitMs ?? -1,
        waited: () => (entry.ended === null ? null : request.timing().responseStart),
      };
      follows.push(entry);
      void request.response().then(() => (entry.ended = Date.now()), () => undefined); // a read still waiting when the test ends
    }
  });

  const hold = holdEngineRuns(demo, demo.organizationId);
  let id: string;
  let released = 0;
  try {
    id = await backgroundUpscale(demo.baseUrl, demo.testKey);
    await page.goto(`/o/${demo.organizationId}/test/generations?open=${id}`);
    const detail = page.getByTestId('generation-detail');
    await expect(detail.getByRole('progressbar', { name: `Progress of ${id}` })).toBeVisible();
    // Long enough for a 1 s poll to have asked several times.
    await page.waitForTimeout(5_000);
    expect(gets.length, 'generations.get while the generation runs').toBe(1);
    // Each follow read waits on the server: at most one per wait (2 s) and the first one, never a burst.
    expect(follows.length).toBeGreaterThan(0);
    expect(follows.every((f) => f.waitMs > 0), JSON.stringify(follows)).toBe(true);
    expect(follows.length, JSON.stringify(follows)).toBeLessThanOrEqual(Math.ceil(5_000 / Math.min(...follows.map((f) => f.waitMs))) + 1);
    const answered = follows.filter((f) => f.ended !== null).map((f) => ({ waitMs: f.waitMs, waited: f.waited()! }));
    expect(answered.every((f) => f.waited >= f.waitMs - 100), `each answered read waited: ${JSON.stringify(answered)}`).toBe(true);
  } finally {
    released = Date.now();
    hold.release();
  }

  const detail = page.getByTestId('generation-detail');
  await expect(detail).toContainText(/succeeded/i, { timeout: 30_000 });
  await expect(detail.getByRole('img', { name: /Output 1 of/ })).toBeVisible();
  expect((await v1(demo.baseUrl, demo.testKey, `/v1/generations/${id}`)).body.status).toBe('succeeded');
  // Still the one get; the end came by the follow read that was waiting at the release (or, when
  // the release fell between two reads, the one after it, answered at once).
  expect(gets.length).toBe(1);
  expect(follows.filter((f) => f.started >= released).length, JSON.stringify({ released, follows })).toBeLessThanOrEqual(1);
});
