// @node-lines same: reads the engines fields of package.json files: the same under any Node
/**
 * The Node versions the project claims (package.json `engines`, said again in the README and
 * docs/operations.md) are versions every installed package declares it runs on: a dependency
 * whose `engines` excludes a claimed line fails here, before a user meets it.
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;
const claim = (readJson('package.json').engines as { node: string }).node;

describe('engines', () => {
  it('claims only Node lines that every installed package declares', () => {
    const lock = readJson('package-lock.json') as { packages: Record<string, { engines?: unknown; version?: string }> };
    const excluded: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      // Only what this platform installed: other platforms' optional binaries never load here.
      if (!where.startsWith('node_modules/') || !fs.existsSync(path.join(root, where, 'package.json'))) continue;
      const declared = (entry.engines as { node?: unknown } | undefined)?.node;
      if (typeof declared !== 'string') continue;
      if (!semver.subset(claim, declared)) excluded.push(`${where.slice('node_modules/'.length)}@${entry.version} declares node ${declared}`);
    }
    expect(excluded).toEqual([]);
  });

  it('says the same claim in the README and the operations guide', () => {
    const lines = [...claim.matchAll(/(\d+)\.(\d+)/g)].map((m) => `${m[1]}.${m[2]}+`);
    for (const file of ['README.md', 'docs/operations.md']) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const line of lines) expect(text, `${file} names Node.js ${line}`).toContain(line);
      expect(text, `${file} claims Node.js 20`).not.toMatch(/Node\.js 20\.\d+\+/);
    }
  });
});
