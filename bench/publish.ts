/**
 * A full `npm run bench` (every section, not `--check`) of a clean tree publishes itself: its
 * tables replace the generated block of docs/performance.md and its glance rows the README's
 * table, each between its markers, so the docs always quote one whole run whose commit and
 * machine head the block. Every run's raw figures are kept under bench/results/ (git-ignored).
 */
import fs from 'node:fs';
import path from 'node:path';
import { markdownTable, type GlanceRow } from './lib';

export const PERFORMANCE_DOC = 'docs/performance.md';
export const README = 'README.md';
const BLOCK = { start: '<!-- bench:latest-run -->', end: '<!-- /bench:latest-run -->' };
const GLANCE = { start: '<!-- bench:glance -->', end: '<!-- /bench:glance -->' };

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

/** Why this run may not be published, or null when it may. */
export function unpublishable(opts: { check: boolean; allSections: boolean; commit: string }): string | null {
  if (opts.check) return 'a bench:check run';
  if (!opts.allSections) return 'not every section ran (--only)';
  if (opts.commit.endsWith('+dirty') || opts.commit === 'unknown') return 'the tree has uncommitted changes';
  return null;
}

export function publishFullRun(root: string, run: FullRun): void {
  const doc = path.join(root, PERFORMANCE_DOC);
  fs.writeFileSync(doc, replaceBetween(fs.readFileSync(doc, 'utf8'), BLOCK, `${run.header}\n\n${run.markdown.join('\n\n')}`, PERFORMANCE_DOC));
  const readme = path.join(root, README);
  const table = markdownTable(['Measure', 'Figure', 'Goal'], run.glance);
  fs.writeFileSync(readme, replaceBetween(fs.readFileSync(readme, 'utf8'), GLANCE, table, README));
}
