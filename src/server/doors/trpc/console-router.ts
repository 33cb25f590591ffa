import { z } from 'zod';
import { pageInput } from '@/server/platform/pages';
import { generationStatusSchema, generationTypeSchema } from '@/server/capabilities/generations/schemas';
import { MEMBER_PERMISSIONS, memberActor } from '@/server/capabilities/access/roles';
import { roleSchema } from '@/shared/members/role-names';
import { signUp } from '@/server/capabilities/orgs/sign-up';
import { requestPasswordReset, resetPassword } from '@/server/capabilities/auth/password-reset';
import { verifyEmail } from '@/server/capabilities/auth/email-verification';
import { changePassword } from '@/server/capabilities/auth/change-password';
import { mailDelivery } from '@/server/capabilities/mail/mail-delivery';
import { createMyOrganization } from '@/server/capabilities/orgs/create-my-organization';
import { me } from '@/server/capabilities/members/my-organizations';
import { listMembers } from '@/server/capabilities/members/list-members';
import { listPendingInvitations } from '@/server/capabilities/members/list-invitations';
import { revokeInvitation } from '@/server/capabilities/members/revoke-invitation';
import { resendInvitation } from '@/server/capabilities/members/resend-invitation';
import { invitationShareLink } from '@/server/capabilities/members/invitation-share-link';
import { inviteMember } from '@/server/capabilities/members/invite-member';
import { removeMember, updateMemberRole } from '@/server/capabilities/members/change-member';
import { acceptInvitation, previewInvitation } from '@/server/capabilities/members/accept-invitation';
import { createMemberKey, listMemberKeys, renameMemberKey, revokeMemberKey, setMemberKeyExpiry, updateMemberKeyFences } from '@/server/capabilities/keys/member-keys';
import { rollMemberKey } from '@/server/capabilities/keys/roll-key';
import { keysRevokedByRemoval } from '@/server/capabilities/keys/keys-of-member';
import { getRequestLogLine, listRequestLog } from '@/server/capabilities/requestlog/search-request-log';
import { getConsoleGeneration, listConsoleGenerations } from '@/server/capabilities/generations/console-generations';
import { cancelGeneration } from '@/server/capabilities/generations/generations';
import { waitForAnyGenerationEnd } from '@/server/capabilities/generations/follow-generation';
import { toApiGeneration } from '@/server/capabilities/generation-object/serialize';
import { billingSummary, listTransactions } from '@/server/capabilities/billing/billing-summary';
import { confirmCreditPurchase, listCreditPurchases, startCreditPurchase } from '@/server/capabilities/billing/credit-purchases';
import { setAutoRecharge } from '@/server/capabilities/billing/auto-recharge';
import { confirmCardSetup, startCardSetup } from '@/server/capabilities/billing/card-setup';
import { config } from '@/server/platform/config';
import { usageByDay } from '@/server/capabilities/usage/usage';
import { monthToDate } from '@/server/capabilities/usage/month-to-date';
import { setSpendAlertSettings, spendAlertNotices, spendAlertSettings } from '@/server/capabilities/billing/spend-alerts';
import { spendAlertSettingsInput } from '@/shared/billing/spend-alert-inputs';
import { overview } from '@/server/capabilities/usage/overview';
import { organizationSettings, renameOrganization, setTwoFactorRequirement } from '@/server/capabilities/orgs/settings';
import { beginTotpEnrolment, confirmTotpEnrolment, disableTwoFactor, regenerateRecoveryCodes, twoFactorStatus, verifySecondFactor } from '@/server/capabilities/auth/two-factor';
import { endOtherSessionsOf, endSession, listSessions } from '@/server/capabilities/auth/manage-sessions';
import { listAuditEvents } from '@/server/capabilities/audit/search-audit-log';
import { exportAuditLog } from '@/server/capabilities/audit/export-audit-log';
import { DomainError } from '@/server/platform/errors';
import { listMyNotificationMail } from '@/server/capabilities/mail/my-notification-mail';
import {
  auditFiltersInput,
  changePasswordInput,
  createOrganizationInput,
  createKeyInput,
  renameKeyInput,
  keyExpiryInput,
  rollKeyInput,
  keyFencesInput,
  generationIdSchema,
  waitForGenerationsInput,
  invitationIdSchema,
  inviteInput,
  linkTokenSchema,
  logFiltersInput,
  purchaseIdSchema,
  cardSetupIdSchema,
  creditPurchaseInput,
  autoRechargeInput,
  renameInput,
  requestIdSchema,
  requestPasswordResetInput,
  requireTwoFactorInput,
  resetPasswordInput,
  secondFactorInput,
  sessionIdSchema,
  totpCodeInput,
  signUpInput,
  unixSecondsSchema,
  userIdSchema,
  verifyEmailInput,
} from '@/shared/console/console-inputs';
import { webhooksRouter } from './webhooks-router';
import { playgroundRouter } from './playground-router';
import { consoleRouterBuilder as router, memberProcedure, originOf, publicProcedure, role, sessionProcedure } from './console-init';

/**
 * Every procedure of the console. Inputs are zod schemas the UI's forms reuse; member
 * procedures take { organizationId, mode } plus their own fields (z.object, not strict: each
 * chained input parser sees the whole input), and every query is scoped by both. Roles per procedure follow the matrix in access/roles.ts (docs/console.md).
 */
const authRouter = router({
  signUp: publicProcedure.input(signUpInput).mutation(({ ctx, input }) => signUp(input, ctx.ip)),
  requestPasswordReset: publicProcedure.input(requestPasswordResetInput).mutation(async ({ ctx, input }) => {
    await requestPasswordReset(input.email, ctx.ip);
    return { sent: true as const };
  }),
  resetPassword: publicProcedure.input(resetPasswordInput).mutation(async ({ ctx, input }) => {
    await resetPassword(input.token, input.password, originOf(ctx));
    return { reset: true as const };
  }),
  verifyEmail: publicProcedure.input(verifyEmailInput).mutation(({ ctx, input }) => verifyEmail(input.token, input.password, ctx.ip)),
  /** Where mail goes on this installation: the screens that send mail say it. */
  mailDelivery: publicProcedure.query(() => mailDelivery()),
  /** The second step of a sign-in: only a session waiting for its code is accepted here. */
  verifySecondFactor: publicProcedure.input(secondFactorInput).mutation(({ ctx, input }) => {
    if (!ctx.pending) throw new DomainError('session_missing', 'This sign-in expired or was finished already: sign in again.');
    return verifySecondFactor(ctx.pending, input.code, originOf(ctx));
  }),
});

/** The user's own two-factor sign-in (not per organization: it is the account's). */
const twoFactorRouter = router({
  status: sessionProcedure.query(({ ctx }) => twoFactorStatus(ctx.user.id)),
  begin: sessionProcedure.mutation(({ ctx }) => beginTotpEnrolment(ctx.user)),
  confirm: sessionProcedure.input(totpCodeInput).mutation(({ ctx, input }) => confirmTotpEnrolment(ctx.user, input.code, ctx.origin)),
  disable: sessionProcedure.input(secondFactorInput).mutation(({ ctx, input }) => disableTwoFactor(ctx.user, input.code, ctx.origin)),
  regenerateRecoveryCodes: sessionProcedure.input(totpCodeInput).mutation(({ ctx, input }) => regenerateRecoveryCodes(ctx.user, input.code, ctx.origin)),
});

/** The user's own sessions. */
const sessionsRouter = router({
  list: sessionProcedure.query(({ ctx }) => listSessions(ctx.user)),
  end: sessionProcedure.input(z.object({ sessionId: sessionIdSchema })).mutation(({ ctx, input }) => endSession(ctx.user, input.sessionId, ctx.origin)),
  endOthers: sessionProcedure.mutation(({ ctx }) => endOtherSessionsOf(ctx.user, ctx.origin)),
});

const meRouter = router({
  get: sessionProcedure.query(({ ctx }) => me(ctx.user)),
  changePassword: sessionProcedure.input(changePasswordInput).mutation(async ({ ctx, input }) => {
    await changePassword(ctx.user, input, ctx.origin);
    return { changed: true as const };
  }),
});

const anyMember = memberProcedure.use(role('owner', 'admin', 'developer'));
const manager = memberProcedure.use(role('owner', 'admin'));
const owner = memberProcedure.use(role('owner'));

export const consoleRouter = router({
  auth: authRouter,
  me: meRouter,
  organizations: router({
    /** A signed-in user opens an organization of their own (open sign-up's rule). */
    create: sessionProcedure.input(createOrganizationInput).mutation(({ ctx, input }) => createMyOrganization(ctx.user, input.name, ctx.origin)),
  }),
  twoFactor: twoFactorRouter,
  sessions: sessionsRouter,
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
    rename: anyMember.input(renameKeyInput).mutation(({ ctx, input }) => renameMemberKey(ctx.member, input.keyId, input.name)),
    revoke: anyMember.input(z.object({ keyId: z.string().max(100) })).mutation(({ ctx, input }) => revokeMemberKey(ctx.member, input.keyId)),
    expiry: anyMember.input(keyExpiryInput).mutation(({ ctx, input }) => setMemberKeyExpiry(ctx.member, input.keyId, input.expiresInDays)),
    /** A new secret for the key; the old one works for the overlap chosen. The secret is in this answer only. */
    roll: anyMember.input(rollKeyInput).mutation(({ ctx, input }) => rollMemberKey(ctx.member, input.keyId, input.overlapSeconds)),
    fences: manager.input(keyFencesInput).mutation(({ ctx, input }) => updateMemberKeyFences(ctx.member, input.keyId, input)),
  }),
  logs: router({
    list: anyMember.input(pageInput.extend(logFiltersInput.shape)).query(({ ctx, input }) => listRequestLog(ctx.member, input, input)),
    get: anyMember.input(z.object({ id: requestIdSchema })).query(({ ctx, input }) => getRequestLogLine(ctx.member, input.id)),
  }),
  generations: router({
    list: anyMember
      .input(pageInput.extend({ type: generationTypeSchema.optional(), status: generationStatusSchema.optional(), from: unixSecondsSchema.optional(), to: unixSecondsSchema.optional() }))
      .query(({ ctx, input }) => listConsoleGenerations(ctx.member, input)),
    get: anyMember.input(z.object({ id: generationIdSchema })).query(({ ctx, input }) => getConsoleGeneration(ctx.member, input.id)),
    /** The list's in-progress rows: answered when one of them ends, or after waitMs. */
    waitForEnd: anyMember.input(waitForGenerationsInput).query(({ ctx, input }) => waitForAnyGenerationEnd(ctx.member, input.ids, input.waitMs)),
    cancel: anyMember
      .input(z.object({ id: generationIdSchema }))
      .mutation(async ({ ctx, input }) => toApiGeneration(await cancelGeneration(ctx.member, input.id, MEMBER_PERMISSIONS))),
  }),
  billing: router({
    get: manager.query(({ ctx }) => billingSummary(ctx.member.organizationId)),
    transactions: manager
      .input(pageInput.extend({ type: z.enum(['credit', 'charge', 'refund', 'recharge', 'expiry']).optional() }))
      .query(({ ctx, input }) => listTransactions(ctx.member.organizationId, input)),
    /** Buy credit: a provider checkout to send the browser to, or (manual provider) a request that waits for the operator's approval. */
    addCredit: manager.input(creditPurchaseInput).mutation(({ ctx, input }) =>
      startCreditPurchase(
        { organizationId: ctx.member.organizationId, userId: ctx.user.id, email: ctx.user.email },
        input,
        `${config().publicBaseUrl}/o/${ctx.member.organizationId}/${ctx.member.mode}/billing`,
        undefined,
        memberActor(ctx.member),
      ),
    ),
    /** The browser is back from the provider's page: ask the provider now. */
    confirmPurchase: manager.input(z.object({ purchaseId: purchaseIdSchema })).mutation(({ ctx, input }) => confirmCreditPurchase(ctx.member.organizationId, input.purchaseId)),
    purchases: manager.input(pageInput).query(({ ctx, input }) => listCreditPurchases(ctx.member.organizationId, input)),
    setAutoRecharge: manager
      .input(autoRechargeInput)
      .mutation(({ ctx, input }) => setAutoRecharge(ctx.member.organizationId, { enabled: input.enabled, threshold: input.threshold, amount: input.amount }, memberActor(ctx.member))),
    /** Change the card that pays auto-recharges: the provider's page that saves a card, to send the browser to. */
    changeCard: manager.mutation(({ ctx }) => startCardSetup(ctx.member.organizationId, `${config().publicBaseUrl}/o/${ctx.member.organizationId}/${ctx.member.mode}/billing`)),
    /** The browser is back from that page: ask the provider, save the card. */
    confirmCardSetup: manager.input(z.object({ checkoutId: cardSetupIdSchema })).mutation(({ ctx, input }) => confirmCardSetup(ctx.member.organizationId, input.checkoutId, memberActor(ctx.member))),
  }),
  usage: router({
    get: anyMember
      .input(z.object({ days: z.union([z.literal(7), z.literal(30), z.literal(90)]) }))
      .query(({ ctx, input }) => usageByDay(ctx.member, input.days)),
    /** Live spend this month against the limit, and its projection to the month's end (usage/month-to-date.ts). */
    month: anyMember.query(({ ctx }) => monthToDate(ctx.member.organizationId)),
  }),
  /** Spend alerts: every member sees the settings and this month's notices; owners and admins change the settings. */
  spendAlerts: router({
    get: anyMember.query(({ ctx }) => spendAlertSettings(ctx.member.organizationId)),
    update: manager.input(spendAlertSettingsInput).mutation(({ ctx, input }) => setSpendAlertSettings(ctx.member, input)),
    notices: anyMember.query(({ ctx }) => spendAlertNotices(ctx.member.organizationId)),
  }),
  members: router({
    list: manager.input(pageInput).query(({ ctx, input }) => listMembers(ctx.member, input)),
    invite: manager.input(inviteInput).mutation(({ ctx, input }) => inviteMember(ctx.member, input)),
    invitations: manager.input(pageInput).query(({ ctx, input }) => listPendingInvitations(ctx.member, input)),
    revokeInvitation: manager.input(z.object({ invitationId: invitationIdSchema })).mutation(({ ctx, input }) => revokeInvitation(ctx.member, input.invitationId)),
    resendInvitation: manager.input(z.object({ invitationId: invitationIdSchema })).mutation(({ ctx, input }) => resendInvitation(ctx.member, input.invitationId)),
    invitationLink: manager.input(z.object({ invitationId: invitationIdSchema })).mutation(({ ctx, input }) => invitationShareLink(ctx.member, input.invitationId)),
    updateRole: manager.input(z.object({ userId: userIdSchema, role: roleSchema })).mutation(({ ctx, input }) => updateMemberRole(ctx.member, input)),
    /** The active keys a member created, both modes: removing them revokes these. */
    keysToRevoke: manager.input(z.object({ userId: userIdSchema })).query(({ ctx, input }) => keysRevokedByRemoval(ctx.member, input.userId)),
    remove: manager.input(z.object({ userId: userIdSchema })).mutation(({ ctx, input }) => removeMember(ctx.member, input)),
  }),
  invitations: router({
    get: publicProcedure.input(z.object({ token: linkTokenSchema })).query(({ input }) => previewInvitation(input.token)),
    accept: sessionProcedure.input(z.object({ token: linkTokenSchema })).mutation(({ ctx, input }) => acceptInvitation(ctx.user, input.token, ctx.origin)),
  }),
  settings: router({
    get: anyMember.query(({ ctx }) => organizationSettings(ctx.member.organizationId)),
    rename: manager.input(renameInput).mutation(({ ctx, input }) => renameOrganization(ctx.member, input.name)),
    requireTwoFactor: owner.input(requireTwoFactorInput).mutation(({ ctx, input }) => setTwoFactorRequirement(ctx.member, input.required)),
  }),
  /** The organization's audit log (every mode): owners and admins. */
  audit: router({
    list: manager.input(pageInput.extend(auditFiltersInput.shape)).query(({ ctx, input }) => listAuditEvents(ctx.member.organizationId, input, input)),
    export: manager
      .input(auditFiltersInput.extend({ format: z.enum(['csv', 'json']) }))
      .query(({ ctx, input }) => exportAuditLog(ctx.member.organizationId, input, input.format)),
  }),
  playground: playgroundRouter,
  outbox: router({
    // The viewer's own notification mail, whatever their role (never access mail: mail/my-notification-mail.ts).
    list: anyMember.input(pageInput).query(({ ctx, input }) => listMyNotificationMail(ctx.user, input)),
  }),
  webhooks: webhooksRouter,
});

export type ConsoleRouter = typeof consoleRouter;
