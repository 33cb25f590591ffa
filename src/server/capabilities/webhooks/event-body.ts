import { sql } from '@/server/platform/db';
import { toUnixSeconds } from '@/server/platform/clock';
import { GENERATION_VIEW_COLUMNS, toApiGenerations, type GenerationView } from '@/server/capabilities/generation-object/serialize';

export interface EventSource {
  id: string;
  type: string;
  mode: 'test' | 'live';
  createdAt: Date;
  generationId: string | null;
  /** Snapshot object (balance events, test events); used as data.object when present. */
  payload: unknown;
}

const SELECT_GENERATIONS = `select ${GENERATION_VIEW_COLUMNS.map((c) => `"${c}"`).join(', ')} from "Generation" where id = any($1::text[])`;

/**
 * The raw bodies of a batch of events, keyed by event id. data.object is the event's stored
 * payload when it has one (balance and test events), else the generation read again now, as
 * GET /v1/generations/{id} returns it (fresh 15-minute output URLs). An event whose object is
 * gone (generation deleted by retention) maps to null.
 */
export async function renderEventBodies(events: readonly EventSource[]): Promise<Map<string, string | null>> {
  const generationIds = [...new Set(events.filter((e) => e.payload == null && e.generationId).map((e) => e.generationId as string))];
  const generations = new Map<string, unknown>();
  if (generationIds.length > 0) {
    const rows = await sql<GenerationView>(SELECT_GENERATIONS, [generationIds]);
    const apiRows = await toApiGenerations(rows);
    apiRows.forEach((g) => generations.set(g.id, g));
  }
  const bodies = new Map<string, string | null>();
  for (const e of events) {
    const object = e.payload ?? (e.generationId ? generations.get(e.generationId) : undefined);
    bodies.set(
      e.id,
      object == null
        ? null
        : JSON.stringify({ id: e.id, type: e.type, created_at: toUnixSeconds(e.createdAt), livemode: e.mode === 'live', data: { object } }),
    );
  }
  return bodies;
}
