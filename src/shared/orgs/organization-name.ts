import { z } from 'zod';

/**
 * The organization-name rule (zod-only: the browser's forms import it). A name is free text that
 * travels into other people's mail (invitations) and pages, so it may not carry anything a mail
 * client or a reader would follow: no URL or scheme, no domain name, no e-mail address, no
 * control or invisible (formatting) characters. "Booking.com" is refused with the rest: a mail
 * client turns it into a link.
 */
const DOT = '[.\\u3002\\uff0e\\uff61]';
const LINK_LIKE = [
  /[a-z][a-z0-9+.-]*:\/\//i, // any scheme://
  /\b(?:https?|ftp|mailto|javascript|data|file|tel|sms):/i,
  new RegExp(`\\bwww${DOT}`, 'i'),
  new RegExp(`[\\p{L}\\p{N}-]${DOT}(?:\\p{L}{2,}|xn--)`, 'iu'), // a domain: label.tld
  new RegExp(`\\d{1,3}${DOT}\\d{1,3}${DOT}\\d{1,3}${DOT}\\d{1,3}`), // an IPv4 address
  /[@\uff20]/, // e-mail addresses
];
const CONTROL_OR_INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

export const ORGANIZATION_NAME_MAX = 100;

/** Why `name` is refused, or null when it is a valid organization name. */
export function organizationNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return 'Name the organization.';
  if (trimmed.length > ORGANIZATION_NAME_MAX) return `At most ${ORGANIZATION_NAME_MAX} characters.`;
  if (CONTROL_OR_INVISIBLE.test(trimmed)) return 'Control and invisible characters are not allowed.';
  const folded = trimmed.normalize('NFKC');
  if (LINK_LIKE.some((pattern) => pattern.test(trimmed) || pattern.test(folded))) {
    return 'An organization name cannot contain a web address, a domain name or an e-mail address.';
  }
  return null;
}

export const organizationNameSchema = z
  .string()
  .trim()
  .superRefine((name, ctx) => {
    const problem = organizationNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * The name as mail may quote it. Names saved before the rule existed may still carry a link: mail
 * then names the organization by its id instead, so no one can use it to relay a phishing text.
 */
export function mailSafeOrganizationName(organization: { id: string; name: string }): string {
  return organizationNameProblem(organization.name) === null ? organization.name : `organization ${organization.id}`;
}
