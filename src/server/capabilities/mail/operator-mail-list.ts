import type { Db } from '@/server/platform/db';
import { toUnixSeconds } from '@/server/platform/clock';
import { normalizeEmail } from './email-address';
import type { MailKind } from '@/generated/prisma/enums';

export interface OperatorMailView {
  id: string;
  to: string;
  subject: string;
  kind: MailKind;
  text: string;
  created_at: number;
}

/**
 * The mail record as the operator reads it (`roomtone mail list`), newest first: every kind,
 * access mail included. Only the CLI calls this: it runs on the operator's machine with the
 * database's credentials, so nothing here is exposed to console users.
 */
export async function listMailForOperator(client: Db, filter: { to?: string | undefined; limit: number }): Promise<{ data: OperatorMailView[]; has_more: boolean }> {
  const rows = await client.mailOutbox.findMany({
    where: filter.to ? { to: normalizeEmail(filter.to) } : {},
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: filter.limit + 1,
  });
  return {
    data: rows.slice(0, filter.limit).map((r) => ({ id: r.id, to: r.to, subject: r.subject, kind: r.kind, text: r.body, created_at: toUnixSeconds(r.createdAt) })),
    has_more: rows.length > filter.limit,
  };
}
