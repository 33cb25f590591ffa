import { createHash } from 'node:crypto';

/**
 * A deterministic run id in UUID form (what pg-boss takes as a job id) for a key such as
 * `generation:<id>`: triggering the same run twice (the sweeper's re-send) finds the first.
 */
export function runIdFor(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
