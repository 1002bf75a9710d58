import "server-only";

import { FleetApiError } from "@/lib/fleet-api";

import { type SharedCacheStore, sharedCacheStore } from "./cache-redis";
import { now } from "./clock";

interface Entry {
  value: unknown;
  expiresAt: number;
}

/**
 * How an entry is kept. `shared`: also in the shared store (Redis with REDIS_URL), for entries that save upstream calls
 * another instance would repeat and whose values are plain JSON (what the routes send); declared where the entry is
 * (the account, the pages of transactions, the station catalog).
 */
export interface CacheEntryOptions {
  shared?: boolean;
}

/** One shared load: its promise, the controller of the signal it runs with, and how many callers still wait for it. */
interface Flight {
  promise: Promise<unknown>;
  controller: AbortController;
  waiters: number;
  settled: boolean;
}

/**
 * Short-lived per-customer caches with single flight: identical concurrent requests for one key share one upstream
 * call, and a fresh answer is reused for its TTL. Keys always begin with the key pair's hash (credentialKey), so
 * customers never share entries. Bounded: the oldest entries go first.
 *
 * The shared load runs with a signal of its own, never one caller's: a caller whose signal aborts stops waiting (and
 * gets "cancelled") while the others keep waiting; the load is aborted only when its last waiter has gone.
 */
export class TtlCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Flight>();

  constructor(
    private readonly maxEntries = 2_000,
    private readonly shared?: SharedCacheStore,
  ) {}

  /**
   * The fresh entry of `key`, or the value of `load` (shared with every concurrent caller of the same key, cached for
   * `ttlMs`). `load` gets the shared load's signal; `signal` is this caller's (its request's).
   */
  async get<T>(
    key: string,
    ttlMs: number,
    load: (signal: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
    options: CacheEntryOptions = {},
  ): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now()) return hit.value as T;
    if (signal?.aborted) throw cancelled(signal);
    const flight = this.inflight.get(key) ?? this.start(key, ttlMs, load, options.shared === true);
    flight.waiters++;
    try {
      return (await waitFor(flight.promise, signal)) as T;
    } finally {
      flight.waiters--;
      // The last waiter left before the load ended: nobody wants it any more, so it stops spending upstream calls,
      // and a later caller starts afresh instead of joining a load that is being aborted.
      if (flight.waiters === 0 && !flight.settled) {
        flight.controller.abort();
        if (this.inflight.get(key) === flight) this.inflight.delete(key);
      }
    }
  }

  /** Callers currently waiting for the shared load of `key` (0 when none runs); for tests. */
  waiting(key: string): number {
    return this.inflight.get(key)?.waiters ?? 0;
  }

  private start<T>(key: string, ttlMs: number, load: (signal: AbortSignal) => Promise<T>, isShared: boolean): Flight {
    const controller = new AbortController();
    const flight: Flight = { promise: Promise.resolve(), controller, waiters: 0, settled: false };
    const shared = this.shared !== undefined && ttlMs > 0 && isShared ? this.shared : undefined;
    // Another instance's fresh answer first (for what it has left of its TTL), else the load, then shared in turn.
    const loaded = async () => ({ value: await load(controller.signal), ttlMs, loaded: true });
    const loadOrRead = async (store: SharedCacheStore): Promise<{ value: T; ttlMs: number; loaded: boolean }> => {
      const hit = await store.read(key);
      if (hit !== undefined) return { value: hit.value as T, ttlMs: Math.min(ttlMs, hit.ttlMs), loaded: false };
      return loaded();
    };
    // Without a shared store the load starts at once, as it always has (callers and tests rely on it).
    flight.promise = (shared === undefined ? loaded() : loadOrRead(shared)).then(
      (got) => {
        flight.settled = true;
        if (this.inflight.get(key) === flight) this.inflight.delete(key);
        if (got.ttlMs > 0 && !controller.signal.aborted) {
          this.set(key, got.value, got.ttlMs);
          if (got.loaded) void shared?.write(key, got.value, got.ttlMs);
        }
        return got.value;
      },
      (error: unknown) => {
        flight.settled = true;
        if (this.inflight.get(key) === flight) this.inflight.delete(key);
        throw error;
      },
    );
    // Every waiter may have left (they each handle the outcome they wait for): an abandoned load's failure is expected.
    flight.promise.catch(() => undefined);
    this.inflight.set(key, flight);
    return flight;
  }

  /** A fresh entry's value without loading anything (undefined when absent or expired); its type is the caller's to know. */
  peek(key: string): unknown {
    const hit = this.entries.get(key);
    return hit && hit.expiresAt > now() ? hit.value : undefined;
  }

  private set(key: string, value: unknown, ttlMs: number): void {
    if (this.entries.size >= this.maxEntries) this.sweep();
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: now() + ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  private sweep(): void {
    const t = now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= t) this.entries.delete(key);
  }

  /** Drops every entry of one customer (after logout). */
  forget(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
    void this.shared?.forget(prefix);
  }
}

const holder = globalThis as typeof globalThis & { __ffdCache?: TtlCache };

function cancelled(signal: AbortSignal): FleetApiError {
  return new FleetApiError({ status: 0, code: "aborted", message: "The request was cancelled.", cause: signal.reason });
}

/** `promise`, or a "cancelled" rejection as soon as `signal` aborts (the promise itself runs on). */
function waitFor<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(cancelled(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise
      .finally(() => {
        signal.removeEventListener("abort", onAbort);
      })
      .then(resolve, reject);
  });
}

/** The process's cache; with REDIS_URL its shareable entries are also in Redis (cache-redis.ts). */
export function cache(): TtlCache {
  holder.__ffdCache ??= new TtlCache(2_000, sharedCacheStore());
  return holder.__ffdCache;
}

/**
 * The one builder of cache keys: the customer's credential hash first (so `forget(key)` drops all of a customer's
 * entries and customers never share one), then what is cached, then the input it depends on, if any.
 */
export function cacheKey(key: string, name: string, input?: unknown): string {
  return input === undefined
    ? `${key}:${name}`
    : `${key}:${name}:${typeof input === "string" ? input : JSON.stringify(input)}`;
}

/** The upstream's account of a key as last read (`GET /account-details`): written at sign-in, read by GET /api/account. */
export function upstreamAccountKey(key: string): string {
  return cacheKey(key, "account-upstream");
}

/** The upstream account's entry is shared with the other instances (Redis): the overview's first read saves a call. */
export const UPSTREAM_ACCOUNT: CacheEntryOptions = { shared: true };
