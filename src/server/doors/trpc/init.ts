import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { DomainError } from '@/server/platform/errors';
import type { Permission } from '@/shared/keys/permissions';
import { requirePermissions, type Caller } from '@/server/capabilities/access/caller';
import type { TrpcContext } from './context';
import { apiErrorFromUnknown } from '@/server/doors/errors';

/** `permissions`: what a key needs to call the procedure (the OpenAPI document shows it per route). */
export type ProcedureMeta = OpenApiMeta & {
  permissions?: readonly Permission[];
  /** 'any': one of `permissions` is enough (a reference list several creation kinds use); else all. */
  permissionsRule?: 'all' | 'any';
  /** Checked as "one of" (permittedAnyProcedure), whatever their number. */
  anyOf?: true;
  /**
   * The resolver proves the calling key unrevoked in its own query (TrpcContext.unrevokedKeyId):
   * the /v1 door may take the key from its cache without the revocation barrier.
   */
  provesKey?: true;
  /**
   * The resolver answers objects its serializer builds field by field, typed by the output
   * schema (generations/serialize.ts): the /v1 adapter does not parse them again (measured, the
   * parse of a page of 20 generations cost about a third of the read's server CPU);
   * test/v1-key-proof.test.ts checks they equal their schema's parse.
   */
  outputSerialized?: true;
};

const t = initTRPC
  .context<TrpcContext>()
  .meta<ProcedureMeta>()
  .create({
    // Every door renders refusals from this: the /v1 wrapper and MCP read `apiError`.
    errorFormatter({ shape, error }) {
      const apiError = apiErrorFromUnknown(error);
      return { ...shape, data: { ...shape.data, apiError: apiError.toBody().error, httpStatus: apiError.status } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * The permission check of a /v1 procedure, from its meta: run by the procedure's middleware
 * (console, MCP) and by the /v1 adapter (http/v1-operations.ts), which calls the resolver
 * directly. 401 without a caller; 403 permission_denied without the permissions.
 */
export function assertPermitted(caller: Caller | null, meta: ProcedureMeta | undefined): Caller {
  if (!caller) throw new TRPCError({ code: 'UNAUTHORIZED', cause: new DomainError('api_key_missing', 'Authentication required.') });
  const needed = meta?.permissions ?? [];
  if (meta?.anyOf) {
    if (!needed.some((p) => caller.permissions.has(p))) {
      throw new DomainError('permission_denied', `This route needs one of the permissions '${needed.join("', '")}'; this key has none of them.`);
    }
  } else {
    requirePermissions(caller, needed);
  }
  return caller;
}

/** A procedure that needs a caller holding at least one of `anyOf` (403 permission_denied otherwise). */
export function permittedAnyProcedure(anyOf: readonly Permission[]) {
  return t.procedure
    .meta({ permissions: anyOf, permissionsRule: anyOf.length > 1 ? 'any' : 'all', anyOf: true })
    .use(({ ctx, meta, next }) => next({ ctx: { caller: assertPermitted(ctx.caller, meta) } }));
}

/** A procedure that needs a caller holding `permission` (403 permission_denied otherwise). */
export function permittedProcedure(...needed: Permission[]) {
  // tRPC merges the narrowed caller into the context.
  return t.procedure.meta({ permissions: needed }).use(({ ctx, meta, next }) => next({ ctx: { caller: assertPermitted(ctx.caller, meta) } }));
}
