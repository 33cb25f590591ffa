/**
 * A full `npm run bench` (every section, not `--check`) of a clean tree publishes itself: its
 * tables replace the generated block of docs/performance.md and its glance rows the README's
 * table, each between its markers, so the docs always quote one whole run whose commit and
 * machine head the block. Every run's raw figures are kept under bench/results/ (git-ignored).
 * A whole `npm run bench -- --only soak` with the soak's default settings publishes its own
 * block the same way, and so does a whole `npm run bench:console` (e2e/perf/publish-reporter.ts).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GlanceRow } from './lib';

export const PERFORMANCE_DOC = 'docs/performance.md';
export const README = 'README.md';
const BLOCK = { start: '<!-- bench:latest-run -->', end: '<!-- /bench:latest-run -->' };
const GLANCE = { start: '<!-- bench:glance -->', end: '<!-- /bench:glance -->' };
const CONSOLE_BLOCK = { start: '<!-- bench:console -->', end: '<!-- /bench:console -->' };
const SOAK_BLOCK = { start: '<!-- bench:soak -->', end: '<!-- /bench:soak -->' };

/**
 * What the soak's figures depend on (bench/sections/soak.ts, its capacity run and the server's
 * node flags): a run with any of them set is not the soak the docs describe.
 */
export const SOAK_SETTINGS = ['SOAK_MINUTES', 'SOAK_LOAD_SHARE', 'SOAK_CREATIONS_PER_MINUTE', 'BENCH_DURATION', 'BENCH_CONNECTIONS', 'BENCH_CPU_PROF', 'BENCH_SERVER_NODE_FLAGS'];

export function markdownTable(headers: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The commit measured (with `+dirty` when the tree has changes): figures are of this code. */
export function gitCommit(root: string): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head}+dirty` : head;
  } catch {
    return 'unknown';
  }
}

export interface Machine {
  cpus: number;
  model: string;
  memoryGb: number;
  node: string;
  loadAverage: number[];
}

export function machine(): Machine {
  return { cpus: os.cpus().length, model: os.cpus()[0]?.model.trim() ?? 'CPU', memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))) };
}

/** A generated block's heading line: what ran, of which commit, when, on what machine. */
export function runHeader(what: string, commit: string, on: Machine, at = new Date()): string {
  return (
    `**${what} of commit ${commit}, ${at.toISOString().replace(/\.\d+Z$/, 'Z')}**: ` +
    `${on.cpus} × ${on.model}, ${on.memoryGb} GB, Node ${on.node}; load average at the end ${on.loadAverage.join(' ')} (1, 5, 15 min).`
  );
}

/** `text` with what lies between the two markers replaced by `body` (the markers stay). */
export function replaceBetween(text: string, markers: { start: string; end: string }, body: string, file: string): string {
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end);
  if (start === -1 || end === -1 || end < start) throw new Error(`${file}: the markers ${markers.start} … ${markers.end} are missing`);
  return `${text.slice(0, start + markers.start.length)}\n${body.trim()}\n${text.slice(end)}`;
}

export interface FullRun {
  /** "… commit abc, machine …": the block's heading line. */
  header: string;
  markdown: string[];
  glance: GlanceRow[];
}

/** Why figures of this commit (gitCommit's answer) may not be published, or null when they may. */
export function uncommitted(commit: string): string | null {
  return commit.endsWith('+dirty') || commit === 'unknown' ? 'the tree has uncommitted changes' : null;
}

/** Why this run may not be published, or null when it may. */
export function unpublishable(opts: { failures: number; check: boolean; allSections: boolean; commit: string }): string | null {
  if (opts.failures > 0) return 'the run is invalid';
  if (opts.check) return 'a bench:check run';
  if (!opts.allSections) return 'not every section ran (--only)';
  return uncommitted(opts.commit);
}

/** Why this run of the soak may not be published to its block, or null when it may. */
export function soakUnpublishable(opts: { failures: number; check: boolean; sections: string[]; commit: string; env: Record<string, string | undefined> }): string | null {
  if (opts.failures > 0) return 'the run is invalid';
  if (opts.check) return 'a bench:check run';
  if (opts.sections.join(',') !== 'soak') return 'not the soak alone (--only soak)';
  const set = SOAK_SETTINGS.filter((name) => opts.env[name] !== undefined);
  if (set.length > 0) return `not the default settings (${set.join(', ')})`;
  return uncommitted(opts.commit);
}

export function publishFullRun(root: string, run: FullRun): void {
  publishBlock(root, BLOCK, run);
  const readme = path.join(root, README);
  const table = markdownTable(['Measure', 'Figure', 'Goal'], run.glance);
  fs.writeFileSync(readme, replaceBetween(fs.readFileSync(readme, 'utf8'), GLANCE, table, README));
}

function publishBlock(root: string, markers: { start: string; end: string }, run: { header: string; markdown: string[] }): void {
  const doc = path.join(root, PERFORMANCE_DOC);
  fs.writeFileSync(doc, replaceBetween(fs.readFileSync(doc, 'utf8'), markers, `${run.header}\n\n${run.markdown.join('\n\n')}`, PERFORMANCE_DOC));
}

/** Replaces the console block of docs/performance.md with a whole `npm run bench:console`. */
export function publishConsoleRun(root: string, run: { header: string; markdown: string[] }): void {
  publishBlock(root, CONSOLE_BLOCK, run);
}

/** Replaces the soak block of docs/performance.md with a whole `npm run bench -- --only soak`. */
export function publishSoakRun(root: string, run: { header: string; markdown: string[] }): void {
  publishBlock(root, SOAK_BLOCK, run);
}
