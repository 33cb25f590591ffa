// @node-lines same: the benchmark's table writer, run by the machine's Node only
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitCommit, PERFORMANCE_DOC, README, publishConsoleRun, publishFullRun, publishSoakRun, replaceBetween, runHeader, SOAK_SETTINGS, soakUnpublishable, unpublishable } from './publish';
import { consoleMarkdown, type ConsoleFigures } from '../e2e/perf/console-figures';

const root = path.resolve(import.meta.dirname, '..');

describe('bench publication', () => {
  it('publishes only a full run of a clean tree', () => {
    const run = { failures: 0, check: false, allSections: true, commit: 'abc123' };
    expect(unpublishable(run)).toBeNull();
    expect(unpublishable({ ...run, failures: 1 })).toBe('the run is invalid');
    expect(unpublishable({ ...run, check: true })).toBe('a bench:check run');
    expect(unpublishable({ ...run, allSections: false })).toBe('not every section ran (--only)');
    expect(unpublishable({ ...run, commit: 'abc123+dirty' })).toBe('the tree has uncommitted changes');
    expect(unpublishable({ ...run, commit: 'unknown' })).toBe('the tree has uncommitted changes');
  });

  it('publishes only a valid soak run alone, with the default settings, of a clean tree', () => {
    const run = { failures: 0, check: false, sections: ['soak'], commit: 'abc123', env: { PATH: '/usr/bin', BENCH_WARMUP: '1' } };
    expect(soakUnpublishable(run)).toBeNull();
    expect(soakUnpublishable({ ...run, failures: 2 })).toBe('the run is invalid');
    expect(soakUnpublishable({ ...run, check: true })).toBe('a bench:check run');
    expect(soakUnpublishable({ ...run, sections: ['http', 'soak'] })).toBe('not the soak alone (--only soak)');
    expect(soakUnpublishable({ ...run, env: { ...run.env, SOAK_MINUTES: '1' } })).toBe('not the default settings (SOAK_MINUTES)');
    expect(soakUnpublishable({ ...run, env: { ...run.env, SOAK_LOAD_SHARE: '0.8', BENCH_DURATION: '2' } })).toBe('not the default settings (SOAK_LOAD_SHARE, BENCH_DURATION)');
    for (const name of SOAK_SETTINGS) expect(soakUnpublishable({ ...run, env: { [name]: '1' } })).toBe(`not the default settings (${name})`);
    expect(soakUnpublishable({ ...run, commit: 'abc123+dirty' })).toBe('the tree has uncommitted changes');
  });

  it('writes a soak run into its own block of the real performance doc in a clean git tree, and refuses once the tree is dirty', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-publish-'));
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], { cwd: dir, encoding: 'utf8' });
    try {
      fs.mkdirSync(path.join(dir, 'docs'));
      fs.copyFileSync(path.join(root, PERFORMANCE_DOC), path.join(dir, PERFORMANCE_DOC));
      git('init', '-q');
      git('add', PERFORMANCE_DOC);
      git('commit', '-q', '-m', 'docs');
      const run = { failures: 0, check: false, sections: ['soak'], env: {} };
      const commit = gitCommit(dir);
      expect(commit).toMatch(/^[0-9a-f]{12}$/);
      expect(soakUnpublishable({ ...run, commit })).toBeNull();

      const header = runHeader('npm run bench -- --only soak', commit, { cpus: 2, model: 'AMD EPYC', memoryGb: 24, node: 'v20.20.2', loadAverage: [1, 1, 1] }, new Date('2026-12-06T12:00:00Z'));
      publishSoakRun(dir, { header, markdown: ['### Soak: 1 min of mixed traffic at 50 % of the read capacity\n\n| minute |\n| --- |\n| 1 |'] });
      const before = fs.readFileSync(path.join(root, PERFORMANCE_DOC), 'utf8');
      const doc = fs.readFileSync(path.join(dir, PERFORMANCE_DOC), 'utf8');
      expect(doc).toContain(
        `<!-- bench:soak -->\n**npm run bench -- --only soak of commit ${commit}, 2026-12-06T12:00:00Z**: 2 × AMD EPYC, 24 GB, Node v20.20.2; load average at the end 1 1 1 (1, 5, 15 min).\n\n### Soak: 1 min of mixed traffic at 50 % of the read capacity\n\n| minute |\n| --- |\n| 1 |\n<!-- /bench:soak -->\n\n## Why the read path is fast`,
      );
      // The block's previous run is gone; the text around it and the other blocks are as they were.
      const soakBlock = (text: string) => text.slice(text.indexOf('<!-- bench:soak -->'), text.indexOf('<!-- /bench:soak -->'));
      expect(soakBlock(before)).toContain('| 10 |');
      expect(soakBlock(doc)).not.toContain('| 10 |');
      expect(doc.replace(soakBlock(doc), '')).toBe(before.replace(soakBlock(before), ''));

      // The published doc is an uncommitted change: a run now would be of a dirty tree.
      expect(gitCommit(dir)).toBe(`${commit}+dirty`);
      expect(soakUnpublishable({ ...run, commit: gitCommit(dir) })).toBe('the tree has uncommitted changes');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
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
