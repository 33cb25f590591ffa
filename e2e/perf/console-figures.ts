/**
 * What each `npm run bench:console` spec attaches to its result (FIGURES, as JSON), and the
 * tables of docs/performance.md's console block written from them (publish-reporter.ts).
 */
import { markdownTable } from '../../bench/publish';

/** The attachment each perf spec hands the reporter. */
export const FIGURES = 'bench:console figures';

export interface PlaygroundFigures {
  runs: number;
  median_api_ms: number;
  median_playground_ms: number;
  median_difference_ms: number;
  median_server_difference_ms: number;
}

export interface ScreenFigures {
  runs: number;
  goal_ms: number;
  screens: Record<string, { first_paint_ms: number; load_ready_ms: number; click_ready_ms: number }>;
  over_goal: string[];
}

export interface PageFigures {
  rows: number;
  runs: number;
  seed_s: number;
  pages: Record<string, { first_render_ms: number; interactive_ms: number }>;
  trpc_log_page: Record<string, { median_ms: number; p95_ms: number }>;
}

export interface ConsoleFigures {
  'playground-result.perf.ts': PlaygroundFigures;
  'console-screens.perf.ts': ScreenFigures;
  'console-pages.perf.ts': PageFigures;
}

export const CONSOLE_SPECS = ['playground-result.perf.ts', 'console-screens.perf.ts', 'console-pages.perf.ts'] as const;

/** The run's settings that change its figures: a published run is one with the defaults. */
export const SETTINGS = ['BENCH_RUNS', 'BENCH_LOG_ROWS'] as const;

const ms = (value: number) => `${Math.round(value)} ms`;

export function consoleMarkdown(figures: ConsoleFigures): string[] {
  const playground = figures['playground-result.perf.ts'];
  const screens = figures['console-screens.perf.ts'];
  const pages = figures['console-pages.perf.ts'];
  const overCurl = playground.median_difference_ms <= 100 ? 'within' : '**over**';
  return [
    `### The playground against curl\n\n` +
      markdownTable(
        [`Upscale x2 of a 960×640 JPEG, ${playground.runs} alternating runs`, 'median'],
        [
          ['`POST /v1/upscales`, synchronous (request → answer)', ms(playground.median_api_ms)],
          ['playground, Run click → output image painted', ms(playground.median_playground_ms)],
          ['**playground over curl** (median of the per-run differences)', `**${ms(playground.median_difference_ms)}** (${overCurl} the goal of 100 ms)`],
          ['the requests’ own server time, playground minus /v1 (request-log duration)', ms(playground.median_server_difference_ms)],
        ],
      ),
    `### Console screens\n\n` +
      markdownTable(
        [`Screen (${screens.runs} rounds after a warm-up)`, 'first paint', 'full load → ready', 'sidebar click → ready'],
        Object.entries(screens.screens).map(([name, f]) => [name, ms(f.first_paint_ms), ms(f.load_ready_ms), ms(f.click_ready_ms)]),
      ) +
      `\n\n${screens.over_goal.length === 0 ? `Every screen within the goal of ${ms(screens.goal_ms)} both ways.` : `Over the goal of ${ms(screens.goal_ms)}: ${screens.over_goal.join(', ')}.`}`,
    `### Console pages over ${pages.rows.toLocaleString('en-US')} request-log lines\n\n` +
      markdownTable(
        [`Seeded in ${Math.round(pages.seed_s)} s; ${pages.runs} loads after a warm-up`, 'first render (FCP)', 'interactive (data hydrated)'],
        Object.entries(pages.pages).map(([name, f]) => [name, ms(f.first_render_ms), ms(f.interactive_ms)]),
      ) +
      '\n\n' +
      markdownTable(
        ['One 50-line log page via `/api/trpc`', 'median', 'p95'],
        Object.entries(pages.trpc_log_page).map(([name, f]) => [name, `${f.median_ms.toFixed(1)} ms`, `${f.p95_ms.toFixed(1)} ms`]),
      ),
  ];
}
