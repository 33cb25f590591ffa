// @node-lines same: CI and test tooling, run by the machine's Node only
/**
 * The docs a newcomer reads stay true to the tree: the README's length, the architecture's folder
 * table (every role of src/server and every folder in it), and the number of doors told the same way everywhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

describe('docs', () => {
  it('keeps the README at 150 lines or fewer', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(150);
  });

  it('lists every role of src/server and every folder in it in the architecture folder table', () => {
    const architecture = read('docs/architecture.md');
    const table = architecture.slice(architecture.indexOf('| Folder |'));
    const rows = table.slice(0, table.indexOf('\n\n'));
    const foldersOf = (dir: string) =>
      fs.readdirSync(path.join(root, dir), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    // The roles (src/server's own folders) and the folders inside the roles that hold several.
    const roles = foldersOf('src/server');
    const folders = [...roles, ...['capabilities', 'doors', 'tools'].filter((role) => roles.includes(role)).flatMap((role) => foldersOf(`src/server/${role}`))];
    const missing = folders.filter((name) => !rows.includes(`\`src/server/${name}\``) && !rows.includes(`\`${name}\``) && !rows.includes(`/${name}\``));
    expect(missing).toEqual([]);
  });

  it('counts the doors the same way in every doc', () => {
    const counts = new Set<string>();
    for (const file of ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]) {
      // "behind four doors", "one of the four doors": a count of all the doors.
      for (const match of read(file).matchAll(/\b(?:behind|of the) (two|three|four|five) doors\b/g)) counts.add(match[1]!);
    }
    expect([...counts]).toEqual(['four']);
  });
});
