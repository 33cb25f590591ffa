import type { Caller, Channel } from '@/server/capabilities/access/caller';
import type { FileParts } from '@/server/capabilities/creations/images';

// The caller is the service layer's type; re-exported for the doors that import it from here.
export type { Caller, Channel } from '@/server/capabilities/access/caller';
export { callerFromKey } from '@/server/capabilities/access/caller';

export interface TrpcContext {
  caller: Caller | null;
  channel: Channel;
  requestId: string;
  /** Mutable response facts a procedure may set (200 vs 202, extra headers). */
  response: { status?: number; headers: Record<string, string> };
  /** Files of a multipart request, referenced from the input by per-request tokens. */
  parts: FileParts;
  /** The Idempotency-Key header (or the MCP tools' idempotency_key argument). */
  idempotencyKey: string | null;
  /** When the request arrived (ms since epoch). */
  receivedAt: number;
  /** How long a creation waits for its end before answering in progress (chosen by the door). */
  creationWaitMs: number;
  /**
   * Set by the /v1 door for a key its cache served without the revocation barrier: a procedure
   * whose meta says `provesKey` passes it to its query (generations' Scope.unrevokedKeyId), which
   * returns rows only while the key is unrevoked and the secret sent still one of its secrets.
   */
  unrevokedKeyId?: string;
  /** With unrevokedKeyId: the hash of the secret sent (a roll may have dropped it since). */
  unrevokedKeySecretHash?: string;
}

