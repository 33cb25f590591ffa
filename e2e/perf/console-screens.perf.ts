/**
 * Figures for docs/performance.md ("Console screens"): how long the console's main screens take
 * to be usable, on the production build, signed in as the demo owner. Two ways in, each screen
 * measured alternately with the others (median of BENCH_RUNS after one warm-up round):
 *
 * - load: a full page load (`page.goto`), from the navigation's start to the first frame where
 *   the screen is ready;
 * - click: from a sidebar link's click event (on another screen) to the first frame where the
 *   next screen is ready (the in-app navigation a member makes most), the pointer having rested
 *   on the link for DWELL_MS before the click (its intent prefetch runs meanwhile).
 *
 * Ready means: the screen's heading is on screen and hydrated (React's fiber is on it, so its
 * handlers work), and no loading state is left in the main area (no skeleton, no "Loading…"
 * status, no navigation bar). Recorded by the page itself, one check per frame. Goal: ≤ 1 s.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { collectConsoleErrors, test } from '../fixtures';
import { FIGURES, type ScreenFigures } from './console-figures';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const OUT = path.resolve(import.meta.dirname, '../../test-results/console-screens.json');
const GOAL_MS = 1_000;
/** How long the pointer rests on a sidebar link before the click (a quick member's). */
const DWELL_MS = 300;

/** Screen, its path under /o/<org>/test/, its h1 and its sidebar link. */
const SCREENS = [
  { name: 'overview', path: 'overview', heading: 'Overview', link: 'Overview' },
  { name: 'playground', path: 'playground', heading: 'Playground', link: 'Playground' },
  { name: 'generations', path: 'generations', heading: 'Generations', link: 'Generations' },
  { name: 'request log', path: 'logs', heading: 'Request log', link: 'Request log' },
  { name: 'keys', path: 'keys', heading: 'API keys', link: 'API keys' },
  { name: 'webhooks', path: 'webhooks', heading: 'Webhooks', link: 'Webhooks' },
  { name: 'billing', path: 'billing', heading: 'Billing', link: 'Billing' },
] as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Watches, from the document's start (an init script) or from now, for the first frame where the screen titled `heading` is ready. */
function watchReady(heading: string, from: 'load' | 'click'): void {
  const w = window as unknown as { __screenReady?: number | null; __clicked?: number };
  w.__screenReady = null;
  const hydrated = (el: Element) => Object.keys(el).some((k) => k.startsWith('__reactFiber'));
  const ready = () => {
    const main = document.querySelector('main');
    const h1 = main?.querySelector('h1');
    if (!main || !h1 || h1.textContent?.trim() !== heading || !hydrated(h1)) return false;
    if (main.querySelector('.animate-pulse, [data-testid="page-loading"]')) return false;
    if ([...main.querySelectorAll('[role="status"]')].some((s) => /^loading/i.test((s.getAttribute('aria-label') ?? s.textContent ?? '').trim()))) return false;
    return document.querySelector('[data-testid="navigation-progress"]') === null;
  };
  const check = () => {
    if (ready()) w.__screenReady = performance.now();
    else requestAnimationFrame(check);
  };
  if (from === 'click') {
    document.addEventListener('click', (event) => (w.__clicked = event.timeStamp), { once: true, capture: true });
    // The first frame after the click: the old screen is still there and would read as ready.
    requestAnimationFrame(() => requestAnimationFrame(check));
    return;
  }
  // From the navigation's start: the document grows until the screen is there.
  check();
}

async function readyAt(page: Page): Promise<number> {
  const handle = await page.waitForFunction(() => (window as unknown as { __screenReady?: number | null }).__screenReady ?? null, undefined, { timeout: 30_000, polling: 100 });
  return (await handle.jsonValue()) as number;
}

test('console screens: full load and sidebar click to a ready screen', async ({ page, demo }) => {
  const base = `/o/${demo.organizationId}/test`;
  // A figure of a page that fails (a hydration mismatch, a failed load) is no figure.
  const consoleErrors = collectConsoleErrors(page);
  const load: Record<string, number[]> = {};
  const fcp: Record<string, number[]> = {};
  const click: Record<string, number[]> = {};
  // The heading to wait for is set by the test before each load (sessionStorage survives it).
  await page.addInitScript({ content: `(() => { const h = sessionStorage.getItem('__watchHeading'); if (h) (${watchReady.toString()})(h, 'load'); })()` });
  await page.goto(`${base}/overview`);

  for (let round = 0; round <= RUNS; round++) {
    for (const screen of SCREENS) {
      // A full load.
      await page.evaluate((h) => sessionStorage.setItem('__watchHeading', h), screen.heading);
      await page.goto(`${base}/${screen.path}`);
      const loaded = await readyAt(page);
      const paint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN);
      await page.evaluate(() => sessionStorage.removeItem('__watchHeading'));
      if (round > 0) {
        (load[screen.name] ??= []).push(loaded);
        (fcp[screen.name] ??= []).push(paint);
      }
    }
    // Sidebar clicks, each from the screen before it (the last from the first).
    for (const [i, screen] of SCREENS.entries()) {
      const from = SCREENS[(i + SCREENS.length - 1) % SCREENS.length]!;
      if (i === 0) {
        await page.goto(`${base}/${from.path}`);
        await page.waitForFunction((h) => {
          const el = document.querySelector('main h1');
          return el?.textContent?.trim() === h && Object.keys(el).some((k) => k.startsWith('__reactFiber'));
        }, from.heading);
        // Every click is measured on a settled page.
        await page.waitForLoadState('networkidle');
      }
      await page.evaluate(`(${watchReady.toString()})(${JSON.stringify(screen.heading)}, 'click')`);
      // As a member clicks: the pointer reaches the link (the console prefetches the screen on
      // that intent) and rests on it a moment before the click.
      const link = page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: screen.link, exact: true });
      await link.hover();
      await page.waitForTimeout(DWELL_MS);
      await link.click();
      const ready = await readyAt(page);
      const clicked = await page.evaluate(() => (window as unknown as { __clicked?: number }).__clicked ?? NaN);
      if (round > 0) (click[screen.name] ??= []).push(ready - clicked);
    }
  }

  const screens = Object.fromEntries(
    SCREENS.map((s) => [
      s.name,
      {
        first_paint_ms: Math.round(median(fcp[s.name] ?? [])),
        load_ready_ms: Math.round(median(load[s.name] ?? [])),
        click_ready_ms: Math.round(median(click[s.name] ?? [])),
        load_runs_ms: (load[s.name] ?? []).map(Math.round),
        click_runs_ms: (click[s.name] ?? []).map(Math.round),
      },
    ]),
  );
  const over = Object.entries(screens).filter(([, f]) => f.load_ready_ms > GOAL_MS || f.click_ready_ms > GOAL_MS).map(([name]) => name);
  const result: ScreenFigures & { measured_at: string } = { measured_at: new Date().toISOString(), runs: RUNS, goal_ms: GOAL_MS, screens, over_goal: over };
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, JSON.stringify(result, null, 2));
  await test.info().attach(FIGURES, { body: JSON.stringify(result), contentType: 'application/json' });
  console.log('| screen | first paint | load → ready | sidebar click → ready |\n| --- | --- | --- | --- |');
  for (const [name, f] of Object.entries(screens)) console.log(`| ${name} | ${f.first_paint_ms} ms | ${f.load_ready_ms} ms | ${f.click_ready_ms} ms |`);
  console.log(JSON.stringify(result, null, 2));
  consoleErrors.expectNone('the console screens');
});
