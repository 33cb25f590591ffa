import { initTRPC, TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { z } from 'zod';
import { DomainError } from '@/server/platform/errors';
import { ApiError, toHttpError, apiErrorFromUnknown } from '@/server/doors/errors';
import { requireMembership, requireRole, type Member, type Role } from '@/server/capabilities/access/roles';
import { modeSchema } from '@/shared/members/role-names';
import type { PendingSession, SessionUser } from '@/server/capabilities/auth/sessions';
import type { RequestOrigin } from '@/server/capabilities/audit/actor';

/**
 * The console's tRPC (over /api/trpc): its own context (a session, never an API key) and the
 * procedure builders that are its auth boundary, t3-style:
 *   publicProcedure   anyone (sign-up, password reset, invitation preview);
 *   sessionProcedure  a signed-in user;
 *   memberProcedure   input carries organizationId and mode; the user's membership is loaded
 *                     (404 when there is none, so other organizations' ids reveal nothing);
 *   .use(role(...))   the roles a procedure admits (see access/roles.ts for the matrix).
 */
export interface ConsoleContext {
  user: SessionUser | null;
  ip: string | null;
  userAgent?: string | null | undefined;
  /** A session that gave its password or link but not yet its second factor: only the code step accepts it. */
  pending?: PendingSession | null | undefined;
}

/** Where the request came from, for the audit log. */
export function originOf(ctx: ConsoleContext): RequestOrigin {
  return { ip: ctx.ip, userAgent: ctx.userAgent ?? null };
}

const STATUS_TO_TRPC: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

const t = initTRPC.context<ConsoleContext>().create({
  isDev: false,
  // The same refusal body as /v1 ({code, message, param}) under data.apiError, with the
  // request id when the door logged one (the playground's creations).
  errorFormatter({ shape, error }) {
    const apiError = apiErrorFromUnknown(error);
    return { ...shape, message: apiError.message, data: { code: shape.data.code, httpStatus: apiError.status, apiError: { ...apiError.toBody().error, ...(apiError.requestId ? { request_id: apiError.requestId } : {}) } } };
  },
});

/** Service refusals (ApiError) keep their HTTP status on /api/trpc too. */
const refusalsAsTrpcErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const raw = result.error.cause;
    const cause = raw instanceof DomainError ? toHttpError(raw) : raw;
    if (cause instanceof ApiError) {
      throw new TRPCError({ code: STATUS_TO_TRPC[cause.status] ?? 'INTERNAL_SERVER_ERROR', message: cause.message, cause });
    }
  }
  return result;
});

export const consoleRouterBuilder = t.router;
export const publicProcedure = t.procedure.use(refusalsAsTrpcErrors);

export const sessionProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) {
    if (ctx.pending) throw new DomainError('second_factor_required', 'Enter the code of your authenticator app to finish signing in.');
    throw new DomainError('session_missing', 'Sign in to use the console.');
  }
  return next({ ctx: { user: ctx.user, origin: originOf(ctx) } });
});

/** Every member procedure's input starts with these (the organization in the URL, the mode switch). */
export const scopeInput = z.object({ organizationId: z.string().regex(/^org_[0-9A-Za-z]{1,64}$/, 'must be an organization id (org_…)'), mode: modeSchema });

export const memberProcedure = sessionProcedure.input(scopeInput).use(async ({ ctx, input, next }) => {
  const member: Member = await requireMembership(ctx.user.id, input.organizationId, input.mode);
  return next({ ctx: { member: { ...member, actor: { type: 'user' as const, userId: ctx.user.id, email: ctx.user.email, origin: ctx.origin } } } });
});

/** Declare the roles a member procedure admits: `memberProcedure.use(role('owner', 'admin'))`. */
export function role(...roles: Role[]) {
  return t.middleware(({ ctx, next }) => {
    const member = (ctx as { member?: Member }).member;
    if (!member) throw new Error('role() needs memberProcedure');
    requireRole(member, roles);
    return next();
  });
}
