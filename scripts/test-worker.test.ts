// @node-lines same: CI and test tooling, run by the machine's Node only
/**
 * The rule of shared integration workers (scripts/test-worker.mjs, docs/testing.md "Shared
 * workers"): a file shares its worker only by declaring it, and never when its text writes
 * process state; the integration projects take every test/** file between them.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config';
import { declaresSharedWorker, sharedWorkerFiles, stateWrites } from './test-worker.mjs';
import { testFiles } from './node-lines.mjs';

describe('@test-worker shared', () => {
  it('no file that declares a shared worker writes the environment, starts servers in-process or replaces timers or modules', () => {
    const offenders = sharedWorkerFiles().flatMap((file) => stateWrites(fs.readFileSync(file, 'utf8')).map((why) => `${file}: ${why}`));
    expect(offenders).toEqual([]);
  });

  it('only the declaration at the head counts, and each kind of state write is seen', () => {
    expect(declaresSharedWorker("// @test-worker shared\nimport { it } from 'vitest';\n")).toBe(true);
    expect(declaresSharedWorker("import { it } from 'vitest';\n")).toBe(false);
    expect(declaresSharedWorker(`${'\n'.repeat(60)}// @test-worker shared\n`)).toBe(false);
    expect(stateWrites("setEnv('STORAGE', 's3');")).toHaveLength(1);
    expect(stateWrites('process.env.LOG_LEVEL = "warn";')).toHaveLength(1);
    expect(stateWrites("process.env['X'] = '1';")).toHaveLength(1);
    expect(stateWrites('if (process.env.CI === "true") {}')).toEqual([]);
    expect(stateWrites('const w = await startWorkers();')).toHaveLength(1);
    expect(stateWrites('vi.useFakeTimers();')).toHaveLength(1);
  });

  it('the two integration projects split test/** between them: each file in exactly one', () => {
    const projects = (config.test?.projects ?? []) as Array<{ test?: { name?: string; include?: string[]; exclude?: string[]; isolate?: boolean } }>;
    const shared = projects.find((p) => p.test?.name === 'integration')?.test;
    const isolated = projects.find((p) => p.test?.name === 'integration-isolated')?.test;
    expect(shared?.isolate).toBe(false);
    expect(isolated?.isolate).not.toBe(false);
    const declared = sharedWorkerFiles();
    expect(declared.length).toBeGreaterThan(0);
    expect(shared?.include).toEqual(declared);
    for (const file of declared) expect(isolated?.exclude).toContain(file);
    const integrationFiles = testFiles().filter((f) => f.startsWith('test/'));
    for (const file of declared) expect(integrationFiles).toContain(file);
  });
});
