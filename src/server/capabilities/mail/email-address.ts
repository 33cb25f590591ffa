/**
 * The one spelling of an e-mail address the service stores and compares: trimmed, lower case.
 * Accounts, invitations and the mail record all key on it.
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
