import type { Permission } from '@/shared/keys/permissions';
import type { Mode } from '@/generated/prisma/enums';
import { DomainError } from '@/server/platform/errors';

/**
 * Who is calling a service function, whatever the door. The /v1 wrapper and the MCP endpoint
 * fill it from an API key; the console fills it from a session (the member's organization, the
 * mode chosen in the console, and the permissions of the member's role).
 */
export interface Caller {
  organizationId: string;
  mode: Mode;
  permissions: ReadonlySet<Permission>;
  tier: number;
  apiKeyId: string | null;
}

/** The door a request came through; recorded on generations and idempotency keys. */
export type Channel = 'v1' | 'mcp' | 'console';

/**
 * What an authenticated API key grants (keys/keys.ts's AuthenticatedKey extends it): declared
 * here because keys sit above access (a key's console management is scoped by a member's role).
 */
export interface KeyGrant {
  keyId: string;
  organizationId: string;
  mode: Mode;
  permissions: ReadonlySet<Permission>;
  tier: number;
}

export function callerFromKey(key: KeyGrant): Caller {
  return {
    organizationId: key.organizationId,
    mode: key.mode,
    permissions: key.permissions,
    tier: key.tier,
    apiKeyId: key.keyId,
  };
}

/** 403 permission_denied unless the caller holds every permission the route needs. */
export function requirePermissions(caller: Caller, needed: readonly Permission[]): void {
  const missing = needed.filter((p) => !caller.permissions.has(p));
  if (missing.length > 0) {
    throw new DomainError('permission_denied', `This key lacks the '${missing.join("', '")}' permission${missing.length > 1 ? 's' : ''} this route needs.`);
  }
}
