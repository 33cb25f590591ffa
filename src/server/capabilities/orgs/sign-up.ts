import { transaction } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { DomainError, invalidParam } from '@/server/platform/errors';
import { newId } from '@/server/platform/ids';
import { sendMail } from '@/server/capabilities/mail/send-mail';
import { normalizeEmail } from '@/server/capabilities/mail/email-address';
import { organizationNameProblem } from '@/shared/orgs/organization-name';
import { acceptInvitationTx } from '@/server/capabilities/members/accept-invitation';
import type { Role } from '@/server/capabilities/access/roles';
import { checkPasswordRule, hashPassword } from '@/server/capabilities/auth/password';
import { requireAttemptAllowed } from '@/server/capabilities/auth/sign-in-limits';
import { sendVerificationMail } from '@/server/capabilities/auth/email-verification';
import { createOrganization } from './orgs';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { userActor } from '@/server/capabilities/audit/actor';

export interface SignUpInput {
  email: string;
  password: string;
  name?: string | undefined;
  /** A new organization of which the new user is owner (open sign-up). */
  organizationName?: string | undefined;
  /** Or: join the organization of this invitation (always allowed; the address must match). */
  invitationToken?: string | undefined;
}

/**
 * `check_email`: the account waits for its address to be confirmed (a link was mailed), or the
 * address already had an account (its owner was mailed). The two answer alike, so sign-up tells
 * nobody which addresses have accounts. `joined`: an invitation's link proved the address, the
 * account is ready and a member.
 */
export type SignUpResult = { status: 'check_email' } | { status: 'joined'; organization_id: string; role: Role };

/** To the owner of an address that already has an account, instead of a second account. */
async function mailAccountExists(email: string): Promise<void> {
  const base = config().publicBaseUrl;
  await sendMail({
    kind: 'access',
    to: email,
    subject: 'Your Roomtone account',
    text:
      'Someone asked to create a Roomtone console account with this address, which already has one. Nothing was changed.\n\n' +
      `If it was you, sign in: ${base}/sign-in\nForgot the password? ${base}/reset-password\n\n` +
      'If it was not you, ignore this message.',
  });
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'P2002';
}

/**
 * Create an account: either with a new organization (when CONSOLE_OPEN_SIGNUP is on, the
 * default), confirmed by a mailed link before the password signs in; or by accepting an
 * invitation, whose link already proved the address (the client then signs in at once).
 * It opens an organization or joins one, so it sits with the organizations, above auth
 * (passwords, confirmation mail) and members (invitations).
 */
export async function signUp(input: SignUpInput, ip: string | null): Promise<SignUpResult> {
  const email = normalizeEmail(input.email);
  await requireAttemptAllowed(email, ip);
  if (!input.invitationToken) {
    if (!config().CONSOLE_OPEN_SIGNUP) {
      throw new DomainError('signup_disabled', 'Sign-up is by invitation on this Roomtone. Ask an organization admin to invite you.');
    }
    const problem = organizationNameProblem(input.organizationName ?? '');
    if (problem) throw invalidParam('organizationName', problem);
  }
  checkPasswordRule(input.password);
  // Hashed whether or not the address is taken: both answers take the same time.
  const passwordHash = await hashPassword(input.password);
  let outcome: { kind: 'exists' } | { kind: 'created'; user: { id: string; email: string } } | { kind: 'joined'; organization_id: string; role: Role };
  try {
    outcome = await transaction(async (tx) => {
      if (await tx.user.findUnique({ where: { email }, select: { id: true } })) return { kind: 'exists' as const };
      const now = clock.now();
      const name = input.name?.trim() || null;
      if (input.invitationToken) {
        // The invitation's link was mailed to this address: using it proves the address.
        const user = await tx.user.create({ data: { id: newId('usr'), email, name, passwordHash, emailVerified: now, createdAt: now } });
        // Only the mailed link: a copy an inviter passed on proves nothing (members/invitation-share-link.ts).
        return { kind: 'joined' as const, ...(await acceptInvitationTx(tx, user, input.invitationToken, { onlyMailedLink: true, origin: { ip, userAgent: null } })) };
      }
      const user = await tx.user.create({ data: { id: newId('usr'), email, name, passwordHash, createdAt: now } });
      const org = await createOrganization(tx, { name: (input.organizationName ?? '').trim() });
      await tx.membership.create({ data: { organizationId: org.id, userId: user.id, role: 'owner', createdAt: now } });
      await recordAudit(tx, userActor(user, { ip, userAgent: null }), org.id, { action: 'organization.created', target: { type: 'organization', id: org.id }, details: { name: org.name, via: 'sign_up' } });
      return { kind: 'created' as const, user: { id: user.id, email } };
    });
  } catch (error) {
    // The same address signed up twice at once: the second is the "exists" case.
    if (!isUniqueViolation(error)) throw error;
    outcome = { kind: 'exists' };
  }
  if (outcome.kind === 'exists') {
    await mailAccountExists(email);
    return { status: 'check_email' };
  }
  if (outcome.kind === 'created') {
    await sendVerificationMail(outcome.user);
    return { status: 'check_email' };
  }
  return { status: 'joined', organization_id: outcome.organization_id, role: outcome.role };
}
