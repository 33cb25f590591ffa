import { toUnixSeconds } from '@/server/platform/clock';
import type { Page, PageParams } from '@/server/platform/pages';
import type { GenerationStage, GenerationStatus, GenerationType } from '@/generated/prisma/enums';
import { getGenerationWithOrigin, listGenerations, type Scope } from './generations';
import { toApiGeneration, toApiGenerations, type ApiGeneration } from '@/server/capabilities/generation-object/serialize';

/**
 * Generations for the console: the API's object (same serializer, signed output URLs) with
 * what a person debugging needs beside it: the timeline and where it came from.
 */
export interface ConsoleGeneration extends ApiGeneration {
  started_at: number | null;
  /** Where an in-progress generation is (queued, preparing, generating, finishing); null once ended. */
  progress_stage: GenerationStage | null;
  channel: 'v1' | 'mcp' | 'console';
  api_key_id: string | null;
  request_id: string | null;
}

export async function listConsoleGenerations(
  scope: Scope,
  params: PageParams & { type?: GenerationType | undefined; status?: GenerationStatus | undefined; from?: number | undefined; to?: number | undefined },
): Promise<Page<ApiGeneration>> {
  const page = await listGenerations(scope, {
    limit: params.limit,
    after: params.cursor,
    type: params.type,
    status: params.status,
    createdFrom: params.from !== undefined ? new Date(params.from * 1000) : undefined,
    createdBefore: params.to !== undefined ? new Date(params.to * 1000) : undefined,
  });
  const data = await toApiGenerations(page.data);
  return { data, next_cursor: page.hasMore ? (data[data.length - 1]?.id ?? null) : null };
}

export async function getConsoleGeneration(scope: Scope, id: string): Promise<ConsoleGeneration> {
  const row = await getGenerationWithOrigin(scope, id);
  return {
    ...(await toApiGeneration(row)),
    started_at: toUnixSeconds(row.startedAt),
    progress_stage: row.status === 'in_progress' ? row.progressStage : null,
    channel: row.channel,
    api_key_id: row.apiKeyId,
    request_id: row.requestId,
  };
}
