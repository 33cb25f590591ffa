import { clock } from '@/server/platform/clock';
import { newId } from '@/server/platform/ids';
import { ApiError, apiErrorFromUnknown, apiErrorFromZodIssues } from '@/server/doors/errors';
import { recordRequest } from '@/server/capabilities/requestlog/requestlog';
import { createUpload } from '@/server/capabilities/uploads/uploads';
import type { Member } from '@/server/capabilities/access/roles';
import type { CreationInput } from '@/server/capabilities/creations/create';
import { decorationInput, editInput, renderInput, upscaleInput } from '@/shared/creations/schemas';
import { listEditMaterialCategories, listEditMaterials, listStyles } from '@/server/capabilities/reference/reference';
import { callerFromMember, quotePlayground, runPlaygroundCreation } from '@/server/capabilities/playground/playground';
import { CREATION_ROUTES, followGenerationInput, materialSearchInput, playgroundCreateInput, playgroundQuoteInput, type CreationKind } from '@/shared/playground/playground-inputs';
import { creationAvailability } from '@/server/capabilities/creations/availability';
import { followGeneration } from '@/server/capabilities/generations/follow-generation';
import { consoleRouterBuilder as router, memberProcedure, role } from './console-init';

const anyMember = memberProcedure.use(role('owner', 'admin', 'developer'));

const SCHEMAS = { render: renderInput, edit: editInput, decoration: decorationInput, upscale: upscaleInput } as const;

/**
 * A playground creation as a door: the /v1 body parsed by the /v1 route's own schema (refusals
 * name the same `param`), the creation service, the wait for the end (`waitMs`), and one
 * request-log line `POST /playground/<route>` (as MCP's `/mcp/<tool>`), refusals included.
 */
async function create(member: Member, input: { kind: CreationKind; body: unknown; idempotencyKey?: string | undefined; waitMs?: number | undefined }, ip: string | null) {
  const started = performance.now();
  const requestId = newId('req');
  const path = `/playground/${CREATION_ROUTES[input.kind]}`;
  const line = (status: number, error: ApiError | null) =>
    recordRequest({
      id: requestId,
      organizationId: member.organizationId,
      apiKeyId: null,
      mode: member.mode,
      method: 'POST',
      path,
      status,
      errorCode: error?.code ?? null,
      errorMessage: error?.message ?? null,
      durationMs: Math.round(performance.now() - started),
      ip,
      createdAt: clock.nowMs(),
    });
  try {
    const parsed = SCHEMAS[input.kind].safeParse(input.body);
    if (!parsed.success) throw apiErrorFromZodIssues(parsed.error.issues);
    const run = await runPlaygroundCreation(member, { type: input.kind, input: parsed.data } as CreationInput, { requestId, idempotencyKey: input.idempotencyKey });
    // Like a synchronous /v1 creation: the answer waits for the end (the worker's wake-up), so a
    // short run costs the page one round trip; a longer one is followed from where this leaves it.
    const generation = await followGeneration(member, run.generation.id, input.waitMs ?? 0);
    line(generation.status === 'in_progress' ? 202 : 200, null);
    return { ...run, generation, requestId };
  } catch (error) {
    const refusal = apiErrorFromUnknown(error, { requestId, route: `POST ${path}` });
    line(refusal.status, refusal);
    throw new ApiError(refusal.code, refusal.message, { ...(refusal.param === undefined ? {} : { param: refusal.param }), headers: refusal.headers, requestId });
  }
}

/**
 * The playground's procedures (console-router.ts mounts them as `playground`): creations through
 * the same service as /v1, the price and quota before running, uploads through the same intake
 * as create_upload (the page PUTs the file to upload_url), and the reference lists of /v1.
 */
export const playgroundRouter = router({
  create: anyMember.input(playgroundCreateInput).mutation(({ ctx, input }) => create(ctx.member, input, ctx.ip)),
  quote: anyMember.input(playgroundQuoteInput).query(({ ctx, input }) => quotePlayground(ctx.member, input)),
  /** Which kinds and modes run here, and what test mode gives: said before Run. */
  availability: anyMember.query(() => creationAvailability()),
  /** The run's generation, answered when it ends (woken by the worker) or after waitMs. */
  follow: anyMember.input(followGenerationInput).query(({ ctx, input }) => followGeneration(ctx.member, input.id, input.waitMs)),
  createUpload: anyMember.mutation(({ ctx }) => createUpload(callerFromMember(ctx.member))),
  styles: anyMember.query(() => listStyles()),
  materialCategories: anyMember.query(() => listEditMaterialCategories()),
  materials: anyMember.input(materialSearchInput).query(async ({ input }) => {
    const page = await listEditMaterials({ limit: 48, after: input.after, category: input.category || undefined, search: input.search || undefined });
    return { data: page.data, hasMore: page.hasMore };
  }),
});
