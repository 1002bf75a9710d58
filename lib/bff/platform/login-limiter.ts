import "server-only";

import { createHash } from "node:crypto";

import { now } from "./clock";

/**
 * Who may spend the deployment's failed-check allowance on sign-ins. The allowance itself (every failed key-pair
 * check this server causes, ≤ 12 a minute, under the provider's ~20 per address) is kept by the upstream client
 * (lib/fleet-api/credential-checks.ts); here, before it is asked:
 *
 * - per key id, a wait that doubles with each *consecutive* failure past the first few, reset by a success: guessing
 *   one key's secret slows down fast, a person's typo does not;
 * - per client address (only known behind a trusted proxy, TRUST_PROXY), a sliding window.
 *
 * Neither applies to a pair recognised as valid (the route asks the client first): key ids are not secret (the demo
 * id is on the login page), so these throttles alone would let anyone lock a key's owner out by failing on purpose.
 */
const KEY_FREE_FAILURES = 3;
const KEY_FIRST_WAIT_MS = 5_000;
const KEY_MAX_WAIT_MS = 15 * 60_000;
/** A key id's failures are forgotten after this long without one. */
export const KEY_FORGET_AFTER_MS = 24 * 3_600_000;
export const ADDRESS_LIMIT = { max: 10, windowMs: 15 * 60_000 };
/** Entries per map; past it the least recently failed go first (a flood of made-up ids cannot grow memory). */
const MAX_TRACKED = 10_000;

interface KeyFailures {
  consecutive: number;
  lastAtMs: number;
}

const holder = globalThis as typeof globalThis & {
  __ffdLoginKeyFailures?: Map<string, KeyFailures>;
  __ffdLoginAddressFailures?: Map<string, number[]>;
};
const keyFailures = () => (holder.__ffdLoginKeyFailures ??= new Map<string, KeyFailures>());
const addressFailures = () => (holder.__ffdLoginAddressFailures ??= new Map<string, number[]>());

/** Tests only: what a restart does to the in-process failures (memory: gone). */
export function forgetLoginFailuresForTests(): void {
  delete holder.__ffdLoginKeyFailures;
  delete holder.__ffdLoginAddressFailures;
}

export const hashedKeyId = (keyId: string) => createHash("sha256").update(keyId).digest("base64url");

/** How long a key id waits after `consecutive` failures in a row: none for the first few, then 5 s doubling to 15 min. */
export function keyWaitAfter(consecutive: number): number {
  if (consecutive < KEY_FREE_FAILURES) return 0;
  return Math.min(KEY_MAX_WAIT_MS, KEY_FIRST_WAIT_MS * 2 ** (consecutive - KEY_FREE_FAILURES));
}

function recentAddressFailures(address: string, t: number): number[] {
  const list = (addressFailures().get(address) ?? []).filter((at) => at > t - ADDRESS_LIMIT.windowMs);
  if (list.length === 0) addressFailures().delete(address);
  else addressFailures().set(address, list);
  return list;
}

/** Milliseconds to wait before this sign-in may be tried, or 0. */
export function loginWaitMs(keyId: string, address: string | null): number {
  const t = now();
  let wait = 0;
  const failures = keyFailures().get(hashedKeyId(keyId));
  if (failures !== undefined) wait = Math.max(0, failures.lastAtMs + keyWaitAfter(failures.consecutive) - t);
  if (address !== null) {
    const list = recentAddressFailures(address, t);
    const oldest = list[list.length - ADDRESS_LIMIT.max];
    if (list.length >= ADDRESS_LIMIT.max && oldest !== undefined)
      wait = Math.max(wait, oldest + ADDRESS_LIMIT.windowMs - t);
  }
  return wait;
}

export function recordLoginFailure(keyId: string, address: string | null): void {
  const t = now();
  const id = hashedKeyId(keyId);
  const previous = keyFailures().get(id);
  const isStale = previous === undefined || t - previous.lastAtMs > KEY_FORGET_AFTER_MS;
  keyFailures().delete(id); // re-inserted last: the Map's order is the eviction order
  keyFailures().set(id, { consecutive: isStale ? 1 : previous.consecutive + 1, lastAtMs: t });
  evictOldest(keyFailures());
  if (address !== null) {
    const list = recentAddressFailures(address, t);
    list.push(t);
    addressFailures().delete(address);
    addressFailures().set(address, list);
    evictOldest(addressFailures());
  }
}

/** A success ends the key id's run of failures: the next typo starts from nothing. */
export function recordLoginSuccess(keyId: string): void {
  keyFailures().delete(hashedKeyId(keyId));
}

/**
 * The limiter as the sign-in uses it: in process without REDIS_URL (the functions above), in Redis with it
 * (login-limiter-redis.ts), so the failures on every instance add up to the same limits as on one.
 */
export interface LoginLimiter {
  waitMs(keyId: string, address: string | null): Promise<number>;
  recordFailure(keyId: string, address: string | null): Promise<void>;
  recordSuccess(keyId: string): Promise<void>;
}

export const memoryLoginLimiter: LoginLimiter = {
  waitMs: (keyId, address) => Promise.resolve(loginWaitMs(keyId, address)),
  recordFailure: (keyId, address) => {
    recordLoginFailure(keyId, address);
    return Promise.resolve();
  },
  recordSuccess: (keyId) => {
    recordLoginSuccess(keyId);
    return Promise.resolve();
  },
};

function evictOldest(map: Map<string, unknown>): void {
  for (const oldest of map.keys()) {
    if (map.size <= MAX_TRACKED) return;
    map.delete(oldest);
  }
}

/**
 * The client's address as our reverse proxy saw it: the right-most `X-Forwarded-For` hop (the proxy appends the
 * address that connected to it; everything left of that is whatever the client sent, so the first hop is
 * client-controlled). Null without TRUST_PROXY, where any X-Forwarded-For is the client's own invention.
 */
export function clientAddress(headers: Headers, trustProxy: boolean): string | null {
  if (!trustProxy) return null;
  const last = headers.get("x-forwarded-for")?.split(",").at(-1)?.trim() ?? "";
  return last === "" ? null : last;
}
