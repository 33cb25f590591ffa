import { db } from '@/server/platform/db';
import { sendMail } from '@/server/capabilities/mail/send-mail';

/** Mail an e-mail sign-in link, to existing accounts only (no account is created by a link). */
export async function sendSignInLink(email: string, url: string): Promise<void> {
  const user = await db().user.findUnique({ where: { email }, select: { id: true } });
  if (!user) return;
  await sendMail({
    kind: 'access',
    to: email,
    subject: 'Your Roomtone sign-in link',
    text: `Sign in to the Roomtone console with this link (valid 15 minutes, usable once):\n\n${url}\n\nIf you did not ask for it, ignore this message.`,
  });
}
