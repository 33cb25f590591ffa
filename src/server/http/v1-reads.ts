import type { z } from 'zod';
import type { Caller } from '@/server/access/caller';
import { requirePermissions } from '@/server/access/caller';
import { assertKeyUnrevoked, type AuthenticatedKey } from '@/server/keys/keys';
import { assertIpAllowed } from '@/server/keys/fences';
import { readGeneration, readGenerationPage } from '@/server/generations/generations';
import { GENERATION_READ_PERMISSIONS, generationIdInput, generationListInput } from '@/server/trpc/v1-router';
import { apiErrorFromZodIssues } from '@/server/trpc/errors';

/**
 * The two hottest /v1 routes, GET /v1/generations/{id} and GET /v1/generations, served
 * without the tRPC and trpc-to-openapi layers: measured, those layers (their middleware
 * chain, the adapter's request handling and the output schema's parse of every object) cost
 * more CPU than the read itself. Everything that decides the answer is shared with the
 * procedures of v1-router.ts, which still serve these routes' OpenAPI document, MCP and
 * the console: the same input schemas, the same permissions, the same service functions
 * (readGeneration, readGenerationPage), the same error rendering. Only requests in the
 * canonical form are taken here (exact path, no repeated query parameter); anything else goes
 * through the adapter, so the two paths never disagree on an edge case.
 * test/v1-reads.test.ts checks both paths answer the same.
 */
type Read = (caller: Caller, key: AuthenticatedKey, ip: string | null) => Promise<unknown>;

/**
 * A read with a key the cache served without its revocation barrier (authenticate's
 * `revocationCheckedByCaller`): the read's own query proves the key unrevoked
 * (Scope.unrevokedKeyId): rows come back only while it is, in a snapshot taken after the
 * request arrived. When nothing comes back (no such generation, an empty page) or the read
 * fails (a bad parameter, a missing permission), the key is confirmed in the database first,
 * so a revoked key is answered 401 as it was with the barrier, never 404, 400 or an empty page.
 * The proof also needs the secret sent still one of the key's (a roll may have dropped it) and the key still without an IP allowlist (the cache only serves such a key
 * here): one set since is judged on the request's address, and the read runs again without
 * the proof if the address passes.
 */
async function provingKey<T>(key: AuthenticatedKey, ip: string | null, read: (unrevokedKeyId: string | undefined) => Promise<T>, found: (result: T) => boolean): Promise<T> {
  if (!key.revocationUnchecked) return read(undefined);
  const confirm = async (): Promise<boolean> => {
    const allowedIps = await assertKeyUnrevoked(key.keyId, key.secretHash);
    assertIpAllowed({ keyId: key.keyId, allowedIps }, ip);
    return allowedIps.length > 0;
  };
  let result: T;
  try {
    result = await read(key.keyId);
  } catch (error) {
    if (await confirm()) return read(undefined);
    throw error;
  }
  if (!found(result) && (await confirm())) return read(undefined);
  return result;
}

const GENERATION_PATH = /^\/v1\/generations\/([^/]+)$/;

function parsed<S extends z.ZodType>(schema: S, input: Record<string, string>): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw apiErrorFromZodIssues(result.error.issues);
  return result.data;
}

/** The query as trpc-to-openapi reads it (one value per name), or null if a name repeats. */
function singleValuedQuery(url: URL): Record<string, string> | null {
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (Object.hasOwn(query, name)) return null;
    query[name] = value;
  }
  return query;
}

/** The read this GET is, or null to let the adapter serve it. */
export function directRead(url: URL): Read | null {
  const query = singleValuedQuery(url);
  if (!query) return null;
  if (url.pathname === '/v1/generations') {
    return (caller, key, ip) =>
      provingKey(
        key,
        ip,
        async (unrevokedKeyId) => {
          requirePermissions(caller, GENERATION_READ_PERMISSIONS);
          return readGenerationPage({ organizationId: caller.organizationId, mode: caller.mode, unrevokedKeyId, unrevokedKeySecretHash: unrevokedKeyId ? key.secretHash : undefined }, parsed(generationListInput, query));
        },
        (page) => page.data.length > 0,
      );
  }
  const id = GENERATION_PATH.exec(url.pathname)?.[1];
  if (id === undefined) return null;
  return (caller, key, ip) =>
    provingKey(
      key,
      ip,
      async (unrevokedKeyId) => {
        requirePermissions(caller, GENERATION_READ_PERMISSIONS);
        return readGeneration({ organizationId: caller.organizationId, mode: caller.mode, unrevokedKeyId, unrevokedKeySecretHash: unrevokedKeyId ? key.secretHash : undefined }, parsed(generationIdInput, { ...query, id }).id);
      },
      () => true,
    );
}
