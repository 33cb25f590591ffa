import { db } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';

/**
 * The mail port. This minimal version only writes the outbox (shown in the console's settings
 * while no SMTP relay is configured); the webhooks branch replaces this file with the real one
 * (outbox + SMTP delivery) under the same path and signature.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export async function sendMail(message: MailMessage): Promise<void> {
  await db().mailOutbox.create({
    data: { id: newId('mail'), to: message.to, subject: message.subject, body: message.text, createdAt: clock.now() },
  });
}
