import { z } from 'zod';
import { pageInput } from '@/server/platform/pages';
import { permissionSchema } from '@/server/keys/permissions';
import { generationStatusSchema, generationTypeSchema } from '@/server/generations/schemas';
import { roleSchema, MEMBER_PERMISSIONS } from '@/server/members/roles';
import { signUp } from '@/server/auth/sign-up';
import { requestPasswordReset, resetPassword } from '@/server/auth/password-reset';
import { changePassword } from '@/server/auth/change-password';
import { me } from '@/server/members/my-organizations';
import { listMembers } from '@/server/members/list-members';
import { inviteMember } from '@/server/members/invite-member';
import { removeMember, updateMemberRole } from '@/server/members/change-member';
import { acceptInvitation, previewInvitation } from '@/server/members/accept-invitation';
import { createMemberKey, listMemberKeys, revokeMemberKey } from '@/server/keys/member-keys';
import { getRequestLogLine, listRequestLog } from '@/server/requestlog/search-request-log';
import { getConsoleGeneration, listConsoleGenerations } from '@/server/generations/console-generations';
import { cancelGeneration } from '@/server/generations/generations';
import { toApiGeneration } from '@/server/generations/serialize';
import { billingSummary, listTransactions } from '@/server/billing/billing-summary';
import { usageByDay } from '@/server/usage/usage';
import { overview } from '@/server/usage/overview';
import { organizationSettings, renameOrganization } from '@/server/orgs/settings';
import { listOrganizationOutbox } from '@/server/mail/outbox';
import { PASSWORD_MAX_LENGTH } from '@/server/auth/password';
import { consoleRouterBuilder as router, memberProcedure, publicProcedure, role, sessionProcedure } from './console-init';

/**
 * Every procedure of the console. Inputs are zod schemas the UI's forms reuse; member
 * procedures take { organizationId, mode } plus their own fields (z.object, not strict: each
 * chained input parser sees the whole input), and every query is scoped by both. Roles per procedure follow the matrix in members/roles.ts (README "Console").
 */
const email = z.email().max(320);
const password = z.string().min(1).max(PASSWORD_MAX_LENGTH);
const token = z.string().min(10).max(200).regex(/^[0-9A-Za-z]+$/, 'is not a valid link token');
const unixSeconds = z.number().int().min(0).max(32_503_680_000);
const requestId = z.string().regex(/^req_[0-9A-Za-z]{1,64}$/, 'must be a request id (req_…)');
const generationId = z.string().regex(/^gen_[0-9A-Za-z]{1,64}$/, 'must be a generation id (gen_…)');
const userId = z.string().regex(/^usr_[0-9A-Za-z]{1,64}$/, 'must be a user id (usr_…)');

export const signUpInput = z.strictObject({
  email,
  password,
  name: z.string().max(100).optional(),
  organizationName: z.string().max(100).optional(),
  invitationToken: token.optional(),
});
export const changePasswordInput = z.strictObject({ currentPassword: z.string().max(PASSWORD_MAX_LENGTH).optional(), newPassword: password });
export const createKeyInput = z.object({ name: z.string().trim().min(1).max(100), permissions: z.array(permissionSchema).min(1).max(5) });
export const inviteInput = z.object({ email, role: roleSchema });
export const logFiltersInput = z.object({
  statusClass: z.enum(['2xx', '3xx', '4xx', '5xx', 'errors']).optional(),
  errorCode: z.string().max(64).optional(),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']).optional(),
  path: z.string().max(300).optional(),
  apiKeyId: z.string().max(100).optional(),
  from: unixSeconds.optional(),
  to: unixSeconds.optional(),
  requestId: requestId.optional(),
});

const authRouter = router({
  signUp: publicProcedure.input(signUpInput).mutation(({ ctx, input }) => signUp(input, ctx.ip)),
  requestPasswordReset: publicProcedure.input(z.strictObject({ email })).mutation(async ({ ctx, input }) => {
    await requestPasswordReset(input.email, ctx.ip);
    return { sent: true as const };
  }),
  resetPassword: publicProcedure.input(z.strictObject({ token, password })).mutation(async ({ input }) => {
    await resetPassword(input.token, input.password);
    return { reset: true as const };
  }),
});

const meRouter = router({
  get: sessionProcedure.query(({ ctx }) => me(ctx.user)),
  changePassword: sessionProcedure.input(changePasswordInput).mutation(async ({ ctx, input }) => {
    await changePassword(ctx.user, input);
    return { changed: true as const };
  }),
});

const anyMember = memberProcedure.use(role('owner', 'admin', 'developer'));
const manager = memberProcedure.use(role('owner', 'admin'));

export const consoleRouter = router({
  auth: authRouter,
  me: meRouter,
  overview: router({
    get: anyMember.query(({ ctx }) => overview(ctx.member)),
  }),
  keys: router({
    list: anyMember
      .input(pageInput.extend({ includeRevoked: z.boolean().optional() }))
      .query(({ ctx, input }) => listMemberKeys(ctx.member, input)),
    create: anyMember.input(createKeyInput).mutation(async ({ ctx, input }) => {
      const key = await createMemberKey(ctx.member, input);
      return { id: key.id, name: key.name, mode: key.mode, permissions: key.permissions, prefix: key.prefix, secret: key.secret };
    }),
    revoke: anyMember.input(z.object({ keyId: z.string().max(100) })).mutation(({ ctx, input }) => revokeMemberKey(ctx.member, input.keyId)),
  }),
  logs: router({
    list: anyMember.input(pageInput.extend(logFiltersInput.shape)).query(({ ctx, input }) => listRequestLog(ctx.member, input, input)),
    get: anyMember.input(z.object({ id: requestId })).query(({ ctx, input }) => getRequestLogLine(ctx.member, input.id)),
  }),
  generations: router({
    list: anyMember
      .input(pageInput.extend({ type: generationTypeSchema.optional(), status: generationStatusSchema.optional(), from: unixSeconds.optional(), to: unixSeconds.optional() }))
      .query(({ ctx, input }) => listConsoleGenerations(ctx.member, input)),
    get: anyMember.input(z.object({ id: generationId })).query(({ ctx, input }) => getConsoleGeneration(ctx.member, input.id)),
    cancel: anyMember
      .input(z.object({ id: generationId }))
      .mutation(async ({ ctx, input }) => toApiGeneration(await cancelGeneration(ctx.member, input.id, MEMBER_PERMISSIONS))),
  }),
  billing: router({
    get: manager.query(({ ctx }) => billingSummary(ctx.member.organizationId)),
    transactions: manager
      .input(pageInput.extend({ type: z.enum(['credit', 'charge', 'refund', 'recharge', 'expiry']).optional() }))
      .query(({ ctx, input }) => listTransactions(ctx.member.organizationId, input)),
  }),
  usage: router({
    get: anyMember
      .input(z.object({ days: z.union([z.literal(7), z.literal(30), z.literal(90)]) }))
      .query(({ ctx, input }) => usageByDay(ctx.member, input.days)),
  }),
  members: router({
    list: manager.input(pageInput).query(({ ctx, input }) => listMembers(ctx.member, input)),
    invite: manager.input(inviteInput).mutation(({ ctx, input }) => inviteMember(ctx.member, input)),
    updateRole: manager.input(z.object({ userId, role: roleSchema })).mutation(({ ctx, input }) => updateMemberRole(ctx.member, input)),
    remove: manager.input(z.object({ userId })).mutation(({ ctx, input }) => removeMember(ctx.member, input)),
  }),
  invitations: router({
    get: publicProcedure.input(z.object({ token })).query(({ input }) => previewInvitation(input.token)),
    accept: sessionProcedure.input(z.object({ token })).mutation(({ ctx, input }) => acceptInvitation(ctx.user, input.token)),
  }),
  settings: router({
    get: anyMember.query(({ ctx }) => organizationSettings(ctx.member.organizationId)),
    rename: manager.input(z.object({ name: z.string().trim().min(1).max(100) })).mutation(({ ctx, input }) => renameOrganization(ctx.member.organizationId, input.name)),
  }),
  outbox: router({
    list: manager.input(pageInput).query(({ ctx, input }) => listOrganizationOutbox(ctx.member.organizationId, input)),
  }),
});

export type ConsoleRouter = typeof consoleRouter;
