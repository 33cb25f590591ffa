import { db } from '@/server/platform/db';
import { config } from '@/server/platform/config';
import { toUnixSeconds, clock } from '@/server/platform/clock';
import { invalidParam } from '@/server/platform/errors';
import { pageOf, type Page, type PageParams } from '@/server/platform/pages';

/**
 * The development mail outbox in the console: while no SMTP relay is configured, mail never
 * leaves the machine, and owners/admins read here the mail sent to their organization's members
 * and invitees (sign-in links, invitations, resets) — never anyone else's. With SMTP it is off.
 */
export interface OutboxView extends Page<{ id: string; to: string; subject: string; text: string; created_at: number }> {
  enabled: boolean;
}

export async function listOrganizationOutbox(organizationId: string, page: PageParams): Promise<OutboxView> {
  if (config().SMTP_URL) return { enabled: false, data: [], next_cursor: null };
  const [members, invitations] = await Promise.all([
    db().membership.findMany({ where: { organizationId }, select: { user: { select: { email: true } } } }),
    db().invitation.findMany({ where: { organizationId, acceptedAt: null, expiresAt: { gt: clock.now() } }, select: { email: true } }),
  ]);
  const recipients = [...new Set([...members.map((m) => m.user.email), ...invitations.map((i) => i.email)])];
  let after: { createdAt: Date; id: string } | null = null;
  if (page.cursor) {
    const row = await db().mailOutbox.findUnique({ where: { id: page.cursor } });
    if (!row || !recipients.includes(row.to)) throw invalidParam('cursor', 'Unknown cursor.');
    after = { createdAt: row.createdAt, id: row.id };
  }
  const rows = await db().mailOutbox.findMany({
    where: {
      to: { in: recipients },
      ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: page.limit + 1,
  });
  return {
    enabled: true,
    ...pageOf(rows, page.limit, (r) => r.id, (r) => ({ id: r.id, to: r.to, subject: r.subject, text: r.body, created_at: toUnixSeconds(r.createdAt) })),
  };
}
