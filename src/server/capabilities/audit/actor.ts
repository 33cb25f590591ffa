/**
 * Who did something and from where, as the audit log records it. Each door builds the actor
 * from its own credentials: the console from the session (user, IP, user agent), the CLI as the
 * operator, background work as the system.
 */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

export const NO_ORIGIN: RequestOrigin = { ip: null, userAgent: null };

export type AuditActor =
  /** A console user; `email` is looked up when the door did not have it. */
  | { type: 'user'; userId: string; email?: string | undefined; origin: RequestOrigin }
  | { type: 'api_key'; apiKeyId: string; prefix: string; origin: RequestOrigin }
  /** The `roomtone` CLI: whoever runs it owns the machine. */
  | { type: 'operator' }
  | { type: 'system' };

export const OPERATOR: AuditActor = { type: 'operator' };
export const SYSTEM: AuditActor = { type: 'system' };

export function userActor(user: { id: string; email?: string | undefined }, origin: RequestOrigin): AuditActor {
  return { type: 'user', userId: user.id, email: user.email, origin };
}
