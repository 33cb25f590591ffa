import { db } from '@/server/platform/db';
import { config } from '@/server/platform/config';
import { toUnixSeconds } from '@/server/platform/clock';
import { invalidParam } from '@/server/platform/errors';
import { pageOf, type Page, type PageParams } from '@/server/platform/pages';

/**
 * What the console shows of the mail record while no SMTP relay is configured: the notification
 * mail (an endpoint disabled, …) addressed to the viewer, and nothing else. Access mail (sign-in
 * links, resets, invitations, verification) is never listed here, whoever asks: it reaches its
 * addressee by SMTP, or the operator's terminal and `roomtone mail list` without SMTP.
 */
export interface MyMailView extends Page<{ id: string; to: string; subject: string; text: string; created_at: number }> {
  enabled: boolean;
}

export async function listMyNotificationMail(viewer: { email: string }, page: PageParams): Promise<MyMailView> {
  if (config().SMTP_URL) return { enabled: false, data: [], next_cursor: null };
  const mine = { to: viewer.email, kind: 'notification' as const };
  let after: { createdAt: Date; id: string } | null = null;
  if (page.cursor) {
    const row = await db().mailOutbox.findFirst({ where: { id: page.cursor, ...mine } });
    if (!row) throw invalidParam('cursor', 'Unknown cursor.');
    after = { createdAt: row.createdAt, id: row.id };
  }
  const rows = await db().mailOutbox.findMany({
    where: { ...mine, ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: page.limit + 1,
  });
  return {
    enabled: true,
    ...pageOf(rows, page.limit, (r) => r.id, (r) => ({ id: r.id, to: r.to, subject: r.subject, text: r.body, created_at: toUnixSeconds(r.createdAt) })),
  };
}
