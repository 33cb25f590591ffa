import { assertKeyUnrevoked, type AuthenticatedKey } from './keys';
import { assertIpAllowed } from './fences';

/**
 * A read with a key the cache served without its revocation barrier (authenticateBearer's
 * `revocationCheckedByCaller`): the read's own query proves the key unrevoked
 * (generations' Scope.unrevokedKeyId): rows come back only while it is, in a snapshot taken
 * after the request arrived. When nothing comes back (`found` says no: no such generation, an
 * empty page) or the read fails (a bad parameter, a missing permission), the key is confirmed
 * in the database first, so a revoked key is answered 401 as it is with the barrier, never 404,
 * 400 or an empty page. The proof also needs the key unexpired, the secret sent still one of the
 * key's (a roll may have dropped it, or its overlap ended) and the key still without an IP
 * allowlist (the cache only serves such a key here): one set since is judged on the request's
 * address, and the read runs again without the proof if the address passes.
 */
export async function readProvingKey<T>(
  key: AuthenticatedKey,
  ip: string | null,
  read: (unrevokedKeyId: string | undefined) => Promise<T>,
  found: (result: T) => boolean,
): Promise<T> {
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
