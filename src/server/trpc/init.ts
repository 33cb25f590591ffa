import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { DomainError } from '@/server/platform/errors';
import type { Permission } from '@/shared/keys/permissions';
import { requirePermissions } from '@/server/access/caller';
import type { TrpcContext } from './context';
import { apiErrorFromUnknown } from './errors';

/** `permissions`: what a key needs to call the procedure (the OpenAPI document shows it per route). */
export type ProcedureMeta = OpenApiMeta & {
  permissions?: readonly Permission[];
  /** 'any': one of `permissions` is enough (a reference list several creation kinds use); else all. */
  permissionsRule?: 'all' | 'any';
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

/** A procedure that needs a caller holding at least one of `anyOf` (403 permission_denied otherwise). */
export function permittedAnyProcedure(anyOf: readonly Permission[]) {
  return t.procedure.meta({ permissions: anyOf, permissionsRule: anyOf.length > 1 ? 'any' : 'all' }).use(({ ctx, next }) => {
    const caller = ctx.caller;
    if (!caller) throw new TRPCError({ code: 'UNAUTHORIZED', cause: new DomainError('api_key_missing', 'Authentication required.') });
    if (!anyOf.some((p) => caller.permissions.has(p))) {
      throw new DomainError('permission_denied', `This route needs one of the permissions '${anyOf.join("', '")}'; this key has none of them.`);
    }
    return next({ ctx: { caller } });
  });
}

/** A procedure that needs a caller holding `permission` (403 permission_denied otherwise). */
export function permittedProcedure(...needed: Permission[]) {
  return t.procedure.meta({ permissions: needed }).use(({ ctx, next }) => {
    const caller = ctx.caller;
    if (!caller) throw new TRPCError({ code: 'UNAUTHORIZED', cause: new DomainError('api_key_missing', 'Authentication required.') });
    requirePermissions(caller, needed);
    return next({ ctx: { caller } }); // tRPC merges it into the context
  });
}
