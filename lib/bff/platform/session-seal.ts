import "server-only";

import { createHash } from "node:crypto";

import { unsealData } from "iron-session";

import { TtlCache } from "./cache";

/**
 * Unsealed session cookies, by the SHA-256 of the seal. Unsealing costs two PBKDF2 derivations, an HMAC and a
 * decryption on the request thread for every request of a session (about a tenth of that thread's time with 40 busy
 * sessions: `npm run bench -- concurrency`). A seal's content never changes, so the same seal always unseals to the
 * same data: the cache changes no answer, and every check of ./session.ts (revocation, idle and absolute timeouts)
 * still runs on each request. The absolute timeout ends a session no later than its seal's own expiry, so a cached
 * entry is never accepted past the moment iron-session would refuse the seal. Kept in this process's memory only
 * (the data holds the key pair, as the request that unsealed it did: no shared store), bounded, a few minutes each.
 */
const unsealed = new TtlCache(5_000);
export const UNSEALED_KEPT_MS = 5 * 60_000;

export function unsealCached<T extends object>(
  seal: string,
  options: { password: string | Record<string, string>; ttl: number | undefined },
): Promise<Readonly<T>> {
  const key = createHash("sha256").update(seal).digest("base64url");
  return unsealed.get(key, UNSEALED_KEPT_MS, async () =>
    Object.freeze(await unsealData<T>(seal, { password: options.password, ttl: options.ttl })),
  );
}
