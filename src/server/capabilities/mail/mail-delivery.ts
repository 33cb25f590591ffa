import { config } from '@/server/platform/config';

/**
 * Where this installation's mail goes, in words a screen that sends mail shows beside its
 * button: access mail (sign-in links, password resets, invitations, address confirmations) and
 * notices (an endpoint disabled, …). The sentences live here, beside the mail port
 * (send-mail.ts), so they change with it.
 */
export interface MailDelivery {
  smtp: boolean;
  /** How access mail reaches its reader here. */
  access: string;
  /** How a notice reaches its reader here. */
  notification: string;
}

export function mailDelivery(): MailDelivery {
  if (config().SMTP_URL) {
    const sent = 'This installation sends it by e-mail.';
    return { smtp: true, access: sent, notification: sent };
  }
  return {
    smtp: false,
    access: "This installation has no SMTP server, so nothing is e-mailed: only the operator can read the message, in the server's log or with roomtone mail list.",
    notification: 'This installation has no SMTP server, so nothing is e-mailed: each addressee reads it in Settings, under Your notification mail.',
  };
}
