// @node-lines same: the benchmark's table writer, run by the machine's Node only
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERFORMANCE_DOC, README, publishConsoleRun, publishFullRun, replaceBetween, runHeader, unpublishable } from './publish';
import { consoleMarkdown, type ConsoleFigures } from '../e2e/perf/console-figures';

const root = path.resolve(import.meta.dirname, '..');

describe('bench publication', () => {
  it('publishes only a full run of a clean tree', () => {
    expect(unpublishable({ check: false, allSections: true, commit: 'abc123' })).toBeNull();
    expect(unpublishable({ check: true, allSections: true, commit: 'abc123' })).toBe('a bench:check run');
    expect(unpublishable({ check: false, allSections: false, commit: 'abc123' })).toBe('not every section ran (--only)');
    expect(unpublishable({ check: false, allSections: true, commit: 'abc123+dirty' })).toBe('the tree has uncommitted changes');
  });

  it('replaces only what lies between the markers, and refuses a file without them', () => {
    const markers = { start: '<!-- a -->', end: '<!-- /a -->' };
    expect(replaceBetween('before\n<!-- a -->\nold\n<!-- /a -->\nafter', markers, 'new', 'f')).toBe('before\n<!-- a -->\nnew\n<!-- /a -->\nafter');
    expect(() => replaceBetween('no markers', markers, 'new', 'f.md')).toThrow('f.md: the markers');
  });

  it('writes the run into copies of the real docs, whose markers exist', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-publish-'));
    try {
      for (const file of [PERFORMANCE_DOC, README]) {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.copyFileSync(path.join(root, file), path.join(dir, file));
      }
      publishFullRun(dir, { header: '**npm run bench of commit abc, now**', markdown: ['### HTTP read path\n\n| a |\n| --- |\n| 1 |'], glance: [['Read A', '0.95×', '≥ 0.8×']] });
      const doc = fs.readFileSync(path.join(dir, PERFORMANCE_DOC), 'utf8');
      expect(doc).toContain('<!-- bench:latest-run -->\n**npm run bench of commit abc, now**\n\n### HTTP read path');
      expect(doc).toContain('## The gates in CI');
      const readme = fs.readFileSync(path.join(dir, README), 'utf8');
      expect(readme).toContain('<!-- bench:glance -->\n| Measure | Figure | Goal |\n| --- | --- | --- |\n| Read A | 0.95× | ≥ 0.8× |\n<!-- /bench:glance -->');
      expect(readme).toContain('## Quick start');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('heads a block with what ran, the commit, the time and the machine', () => {
    const header = runHeader('npm run bench:console', 'abc123', { cpus: 2, model: 'AMD EPYC', memoryGb: 24, node: 'v20.20.2', loadAverage: [0.5, 0.7, 1] }, new Date('2026-12-06T12:00:00.123Z'));
    expect(header).toBe('**npm run bench:console of commit abc123, 2026-12-06T12:00:00Z**: 2 × AMD EPYC, 24 GB, Node v20.20.2; load average at the end 0.5 0.7 1 (1, 5, 15 min).');
  });

  it('writes a bench:console run into its own block of a copy of the real performance doc', () => {
    const figures: ConsoleFigures = {
      'playground-result.perf.ts': { runs: 5, median_api_ms: 249, median_playground_ms: 297, median_difference_ms: 149, median_server_difference_ms: 3 },
      'console-screens.perf.ts': { runs: 5, goal_ms: 1000, screens: { overview: { first_paint_ms: 80, load_ready_ms: 405, click_ready_ms: 1379 } }, over_goal: ['overview'] },
      'console-pages.perf.ts': { rows: 1_000_000, runs: 7, seed_s: 32.4, pages: { 'request log': { first_render_ms: 176, interactive_ms: 256 } }, trpc_log_page: { 'first page': { median_ms: 8.6, p95_ms: 17.7 } } },
    };
    const markdown = consoleMarkdown(figures);
    expect(markdown.join('\n')).toContain('| **playground over curl** (median of the per-run differences) | **149 ms** (**over** the goal of 100 ms) |');
    expect(markdown.join('\n')).toContain('| overview | 80 ms | 405 ms | 1379 ms |\n\nOver the goal of 1000 ms: overview.');
    expect(markdown.join('\n')).toContain('### Console pages over 1,000,000 request-log lines');
    expect(markdown.join('\n')).toContain('| first page | 8.6 ms | 17.7 ms |');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-publish-'));
    try {
      fs.mkdirSync(path.join(dir, 'docs'));
      fs.copyFileSync(path.join(root, PERFORMANCE_DOC), path.join(dir, PERFORMANCE_DOC));
      publishConsoleRun(dir, { header: '**npm run bench:console of commit abc, now**', markdown });
      const doc = fs.readFileSync(path.join(dir, PERFORMANCE_DOC), 'utf8');
      expect(doc).toContain('<!-- bench:console -->\n**npm run bench:console of commit abc, now**\n\n### The playground against curl');
      // The main bench's block is another one, untouched.
      const latestRun = (text: string) => text.slice(text.indexOf('<!-- bench:latest-run -->'));
      expect(latestRun(doc)).toBe(latestRun(fs.readFileSync(path.join(root, PERFORMANCE_DOC), 'utf8')));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
