import type { Transporter } from 'nodemailer';
import { config } from '@/server/platform/config';
import { db } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';
import { log } from '@/server/platform/logger';
import type { MailKind } from '@/generated/prisma/enums';

/**
 * The mail port. Every message is recorded in the MailOutbox table (the operator's record,
 * `roomtone mail list`); with SMTP_URL set it is also sent through that relay with nodemailer. A
 * relay failure throws after the row is written, so the message is never silently lost.
 *
 * `kind` says what the message is for. Access mail (sign-in links, password resets,
 * invitations, address verification) lets whoever reads it into an account, so only its
 * addressee and the operator may ever read it: never the console. Without SMTP it is printed in
 * the server's log (the operator's terminal) and kept for the CLI; with SMTP its body is not
 * kept at all (the relay delivered it; a copy at rest would be a live link in the database).
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  kind: MailKind;
}

let transport: { url: string; transporter: Transporter } | null = null;

/** The relay's transport; nodemailer loads with the first message sent through SMTP, not at every start. */
async function smtp(url: string): Promise<Transporter> {
  if (transport?.url !== url) {
    const { default: nodemailer } = await import('nodemailer');
    if (transport?.url !== url) transport = { url, transporter: nodemailer.createTransport(url) };
  }
  return transport.transporter;
}

const ACCESS_BODY_NOT_KEPT = '(access mail sent through SMTP: its body, which holds a live link, is not kept)';

export async function sendMail(message: MailMessage): Promise<void> {
  const url = config().SMTP_URL;
  const body = url && message.kind === 'access' ? ACCESS_BODY_NOT_KEPT : message.text;
  await db().mailOutbox.create({
    data: { id: newId('mail'), to: message.to, subject: message.subject, body, kind: message.kind, createdAt: clock.now() },
  });
  if (!url) {
    // The zero-setup delivery: the operator's terminal (and `roomtone mail list`).
    log.info('mail not sent: no SMTP_URL (read it here or with `roomtone mail list`)', {
      to: message.to,
      subject: message.subject,
      links: message.text.match(/https?:\/\/\S+/g) ?? [],
      text: message.text,
    });
    return;
  }
  await (await smtp(url)).sendMail({ from: config().MAIL_FROM, to: message.to, subject: message.subject, text: message.text });
}
