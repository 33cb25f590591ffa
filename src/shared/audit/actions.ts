/**
 * Every action the audit log records (zod-free, no server imports: the console's filter
 * imports it). docs/security.md describes each.
 */
export const AUDIT_ACTIONS = [
  'signin.succeeded',
  'signin.failed',
  'signin.two_factor_succeeded',
  'signin.two_factor_failed',
  'session.ended',
  'session.ended_others',
  'user.password_changed',
  'user.password_reset',
  'two_factor.enabled',
  'two_factor.disabled',
  'two_factor.recovery_codes_regenerated',
  'api_key.created',
  'api_key.revoked',
  'api_key.renamed',
  'api_key.fences_updated',
  'member.invited',
  'member.role_changed',
  'member.removed',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.disabled',
  'webhook_endpoint.enabled',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.deleted',
  'auto_recharge.updated',
  'auto_recharge.payment_method_set',
  'organization.created',
  'organization.renamed',
  'organization.two_factor_requirement_changed',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
