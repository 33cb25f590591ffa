import type { AuthenticatedKey } from '@/server/keys/keys';
import type { Permission } from '@/server/keys/permissions';
import type { Mode } from '@/generated/prisma/enums';
import type { FileParts } from '@/server/creations/images';

/**
 * What a procedure knows about its caller. The /v1 wrapper and the MCP endpoint fill it from
 * an API key; the console fills it from a session (the member's organization, the mode chosen
 * in the console, and the permissions of the member's role).
 */
export interface Caller {
  organizationId: string;
  mode: Mode;
  permissions: ReadonlySet<Permission>;
  tier: number;
  apiKeyId: string | null;
}

export interface TrpcContext {
  caller: Caller | null;
  channel: 'v1' | 'mcp' | 'console';
  requestId: string;
  /** Mutable response facts a procedure may set (200 vs 202, extra headers). */
  response: { status?: number; headers: Record<string, string> };
  /** Files of a multipart request, referenced from the input by per-request tokens. */
  parts: FileParts;
  /** The Idempotency-Key header (or the MCP tools' idempotency_key argument). */
  idempotencyKey: string | null;
  /** When the request arrived (ms since epoch). */
  receivedAt: number;
}

export function callerFromKey(key: AuthenticatedKey): Caller {
  return {
    organizationId: key.organizationId,
    mode: key.mode,
    permissions: key.permissions,
    tier: key.tier,
    apiKeyId: key.keyId,
  };
}
