// @node-lines same: CI and test tooling, run by the machine's Node only
/**
 * The rule of the `integration-shared` project (docs/testing.md, "vitest projects"): an
 * integration file has a worker process of its own unless its head declares that it shares one
 * (scripts/worker-process.mjs); a malformed declaration, or one outside test/, fails here,
 * and the projects run each integration file exactly once, in the project its declaration names.
 */
import { describe, expect, it } from 'vitest';
import config from '../vitest.config';
import { gatherSharedProcesses } from '../test/longest-first-sequencer.mjs';
import { sharedWorkerFiles, workerProcessDeclaration, workerProcessDeclarations } from './worker-process.mjs';

type Project = { test?: { name?: string; include?: string[]; exclude?: string[]; isolate?: boolean; setupFiles?: string[] } };
/** The tag, never written whole in this file's head (it would count as this file's declaration). */
const TAG = ['@worker', 'process'].join('-');
const projects = (config.test?.projects ?? []) as Project[];
const project = (name: string) => projects.find((p) => p.test?.name === name)?.test;

describe(`${TAG} declarations`, () => {
  it('every declaration in the repository reads "<tag> shared: <reason>", in an integration file', () => {
    const invalid = workerProcessDeclarations().filter((d) => d.kind === 'invalid');
    expect(invalid.map((d) => `${d.file}: ${d.kind === 'invalid' ? d.error : ''}`)).toEqual([]);
  });

  it('a file that declares nothing has a process of its own; `shared` needs its reason; any other word is refused', () => {
    expect(workerProcessDeclaration("import { it } from 'vitest';\n")).toEqual({ kind: 'own' });
    expect(workerProcessDeclaration(`// ${TAG} shared: requests to the shared server only\nimport x;\n`)).toEqual({ kind: 'shared', reason: 'requests to the shared server only' });
    expect(workerProcessDeclaration(`/**\n * Header.\n * ${TAG} shared: requests to the shared server only\n */\n`)).toEqual({ kind: 'shared', reason: 'requests to the shared server only' });
    expect(workerProcessDeclaration(`// ${TAG} shared\n`).kind).toBe('invalid');
    expect(workerProcessDeclaration(`// ${TAG} shared: short\n`).kind).toBe('invalid');
    expect(workerProcessDeclaration(`// ${TAG} own: starts a server of its own\n`).kind).toBe('invalid');
    expect(workerProcessDeclaration(`${'\n'.repeat(60)}// ${TAG} shared: requests to the shared server only\n`)).toEqual({ kind: 'own' });
  });

  it('the declared files run in integration-shared, without a fresh process per file and under the guard; the others keep their own', () => {
    const shared = sharedWorkerFiles();
    expect(shared).toContain('test/generations.test.ts');
    const sharedProject = project('integration-shared');
    expect(sharedProject?.include).toEqual(shared);
    expect(sharedProject?.isolate).toBe(false);
    expect(sharedProject?.setupFiles).toEqual(['test/shared-worker-guard.ts']);
    const integration = project('integration');
    expect(integration?.isolate).not.toBe(false);
    for (const file of shared) expect(integration?.exclude).toContain(file);
  });

  it('the sequencer keeps the files of a project that shares its processes together, at the place of its first', () => {
    // vitest reuses a shared process only for a next file of the same project.
    const spec = (id: string, project: string, isolate: boolean) => ({ id, project: { name: project, config: { isolate } } });
    const sorted = [
      spec('own-processes', 'integration', true),
      spec('shared-long', 'integration-shared', false),
      spec('isolated', 'integration', true),
      spec('shared-short', 'integration-shared', false),
      spec('unit-long', 'unit', false),
      spec('isolated-short', 'integration', true),
      spec('unit-short', 'unit', false),
    ];
    expect(gatherSharedProcesses(sorted).map((s) => s.id)).toEqual(['own-processes', 'shared-long', 'shared-short', 'isolated', 'unit-long', 'unit-short', 'isolated-short']);
  });
});
