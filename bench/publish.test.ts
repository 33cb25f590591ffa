// @node-lines same: the benchmark's table writer, run by the machine's Node only
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERFORMANCE_DOC, README, publishFullRun, replaceBetween, unpublishable } from './publish';

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
});
