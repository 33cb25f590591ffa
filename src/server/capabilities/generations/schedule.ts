import { db } from '@/server/platform/db';
import { config } from '@/server/platform/config';
import { costClassOf, type CostClass } from '@/server/capabilities/engine/cost-class';
import type { GenerationType, Mode } from '@/generated/prisma/enums';
import { storedInput, storedInputImages } from '@/server/capabilities/generation-object/stored-json';

/**
 * Where and in which order a generation waits. Two rules (docs/architecture.md, "Scheduling"):
 * - cost classes: light, heavy and remote (generative backend) generations have their own
 *   queues and their own worker slots, so a recolour never waits behind a neural upscale, a
 *   PatchMatch fill or a hosted model;
 * - weighted round-robin across organizations: a job's pg-boss priority falls with the number of
 *   its organization's generations already waiting to start (divided by the tier's weight).
 *   Workers claim by priority, then age, so every organization's k-th waiting job ranks with
 *   every other organization's k-th: a flood from one organization puts at most one of its jobs
 *   (per weight) before another organization's first. Nothing is capped, so one organization
 *   alone still gets every slot.
 * JOB_SCHEDULING=fifo turns both off (one queue, oldest first), for comparisons.
 */
/** Generations wait in the queue of their cost class. */
export const GENERATION_QUEUES: Readonly<Record<CostClass, string>> = { light: 'generation.light', heavy: 'generation.heavy', remote: 'generation.remote' };

export interface Placement {
  costClass: CostClass;
  priority: number;
}

/** Waiting jobs ahead counted per organization; beyond this they all rank last (and among themselves by age). */
const RANK_LIMIT = 10_000;
/** Share of the workers by tier, relative to tier 1: a tier-4 organization's first 8 jobs rank first. */
const TIER_WEIGHTS: Readonly<Record<number, number>> = { 1: 1, 2: 2, 3: 4, 4: 8 };

export function fairPriority(ahead: number, tier: number): number {
  return Math.max(0, RANK_LIMIT - Math.floor(ahead / (TIER_WEIGHTS[tier] ?? 1)));
}

/** The cost class of a stored generation (its settings and its main image's size). */
export function generationCostClass(generation: { type: GenerationType; mode: Mode; input: unknown; inputImages: unknown }): CostClass {
  const image = storedInputImages(generation.inputImages).find((i) => i.param === 'image');
  const size = image?.width && image.height ? { width: image.width, height: image.height } : null;
  return costClassOf(generation.type, storedInput(generation.input), generation.mode, size);
}

/**
 * Older generations of the same organization counted when ranking a new one; beyond this many
 * waiting, its jobs all rank as this many (and among themselves by age).
 */
const AHEAD_SCAN_LIMIT = 2_000;

export async function placeGeneration(generationId: string): Promise<Placement | null> {
  const rows = await db().$queryRaw<{ type: GenerationType; mode: Mode; input: unknown; inputImages: unknown; tier: number }[]>`
    select g.type, g.mode, g.input, g."inputImages", o.tier
    from "Generation" g join "Organization" o on o.id = g."organizationId"
    where g.id = ${generationId}`;
  const row = rows[0];
  if (!row) return null;
  if (config().JOB_SCHEDULING === 'fifo') return { costClass: 'heavy', priority: 0 };
  const costClass = generationCostClass(row);
  // Only the organization's jobs waiting in the same class's queue are ahead of this one: its
  // light jobs waiting elsewhere do not delay its heavy ones, so they must not lower their rank
  // (they did, and a loaded machine let 7 of a flood's jobs overtake another organization's
  // heavy job instead of at most 2).
  const waiting = await db().$queryRaw<{ type: GenerationType; mode: Mode; input: unknown; inputImages: unknown }[]>`
    select p.type, p.mode, p.input, p."inputImages"
    from "Generation" g join "Generation" p on p."organizationId" = g."organizationId"
    where g.id = ${generationId} and p.status = 'in_progress' and p."startedAt" is null and p."createdAt" < g."createdAt"
    limit ${AHEAD_SCAN_LIMIT}`;
  const ahead = waiting.filter((p) => generationCostClass(p) === costClass).length;
  return { costClass, priority: fairPriority(ahead, row.tier) };
}
