import nodemailer, { type Transporter } from 'nodemailer';
import { config } from '@/server/platform/config';
import { db } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';

/**
 * The mail port. Every message is written to the MailOutbox table (zero-setup: the console
 * shows it); with SMTP_URL set it is also sent through that relay with nodemailer. A relay
 * failure throws after the outbox row is written, so the message is never silently lost.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

let transport: { url: string; transporter: Transporter } | null = null;

function smtp(url: string): Transporter {
  if (transport?.url !== url) transport = { url, transporter: nodemailer.createTransport(url) };
  return transport.transporter;
}

export async function sendMail(message: { to: string; subject: string; text: string; html?: string }): Promise<void> {
  await db().mailOutbox.create({
    data: { id: newId('mail'), to: message.to, subject: message.subject, body: message.text, createdAt: clock.now() },
  });
  const url = config().SMTP_URL;
  if (!url) return;
  await smtp(url).sendMail({
    from: config().MAIL_FROM,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html !== undefined ? { html: message.html } : {}),
  });
}
