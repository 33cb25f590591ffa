import { config } from '@/server/platform/config';

/**
 * Where this installation's mail goes, in words a screen that sends mail shows beside its
 * button (sign-in links, password resets, invitations, endpoint notices). The sentence lives
 * here, beside the mail port (send-mail.ts), so it changes with it.
 */
export interface MailDelivery {
  smtp: boolean;
  /** One sentence: how the message reaches its reader here. */
  destination: string;
}

export function mailDelivery(): MailDelivery {
  if (config().SMTP_URL) return { smtp: true, destination: 'This installation sends it by e-mail.' };
  return {
    smtp: false,
    destination:
      "This installation has no SMTP server, so nothing is e-mailed: the message waits in the mail outbox, which the organization's owners and admins read in Settings.",
  };
}
