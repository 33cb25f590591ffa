/**
 * The order of a sequence group's files (vitest.config.ts): longest first across the projects
 * of the group, so unit files run beside integration files and no long file starts last and
 * runs alone at the end. vitest's own order runs one project after the other, and by file size
 * when it has no durations yet, as on a clean clone in CI.
 *
 * A file's length is its last run's duration when vitest has one (node_modules/.vite/vitest);
 * otherwise an estimate from the file: one that starts processes or a database of its own takes
 * tens of seconds, another integration file seconds, a unit file less. A file that failed last
 * time runs first, as in vitest's own order. The files of a project that shares its worker
 * processes stay together (gatherSharedProcesses).
 */
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer } from 'vitest/node';

/** What a file that starts processes (or a database) of its own calls. */
const OWN_PROCESSES = /\b(startServer|startWorker|startProcess|startRoomtone|startService|service|freshDatabase|prepareBackendTestEnv|startEmbeddedPostgres)\(/;

/** Estimates without a last duration, in milliseconds (a CI run's durations: 10–70 s, 1–20 s, mostly under 1 s). */
const ESTIMATE_MS = { ownProcesses: 30_000, integration: 5_000, unit: 500 };

/** @param {import('vitest/node').TestSpecification} spec */
function estimate(spec) {
  let text = '';
  try {
    text = fs.readFileSync(spec.moduleId, 'utf8');
  } catch {
    return 0;
  }
  // Larger files first among equals: a thousand characters count as a tenth of a second.
  const bySize = text.length / 10;
  if (spec.project.name === 'unit') return ESTIMATE_MS.unit + bySize;
  return (OWN_PROCESSES.test(text) ? ESTIMATE_MS.ownProcesses : ESTIMATE_MS.integration) + bySize;
}

export default class LongestFirstSequencer extends BaseSequencer {
  /** @param {import('vitest/node').TestSpecification[]} files */
  async sort(files) {
    const root = this.ctx.config.root;
    const known = new Map(
      files.map((spec) => {
        const last = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path.relative(root, spec.moduleId)}`);
        return [spec, { failed: last?.failed ?? false, ms: last?.duration ?? estimate(spec) }];
      }),
    );
    const sorted = [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      const ka = /** @type {{ failed: boolean, ms: number }} */ (known.get(a));
      const kb = /** @type {{ failed: boolean, ms: number }} */ (known.get(b));
      if (ka.failed !== kb.failed) return ka.failed ? -1 : 1;
      return kb.ms - ka.ms || a.moduleId.localeCompare(b.moduleId);
    });
    return gatherSharedProcesses(sorted);
  }
}

/**
 * The files of a project without isolation (`isolate: false`) moved together, at the place of
 * its first: vitest keeps a worker process for the next file only when the next file waiting is
 * of the same project, so one file of another project between two of them costs a new process.
 * @param {import('vitest/node').TestSpecification[]} sorted
 */
export function gatherSharedProcesses(sorted) {
  const shared = (spec) => spec.project.config.isolate === false;
  const placed = new Set();
  return sorted.flatMap((spec) => {
    if (!shared(spec)) return [spec];
    if (placed.has(spec.project.name)) return [];
    placed.add(spec.project.name);
    return sorted.filter((other) => shared(other) && other.project.name === spec.project.name);
  });
}
