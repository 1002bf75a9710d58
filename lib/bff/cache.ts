import "server-only";
import { now } from "./clock";

interface Entry {
  value: unknown;
  expiresAt: number;
}

/**
 * Short-lived per-customer caches with single flight: identical concurrent requests for one key share one upstream
 * call, and a fresh answer is reused for its TTL. Keys always begin with the key pair's hash (credentialKey), so
 * customers never share entries. Bounded: the oldest entries go first.
 */
export class TtlCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<unknown>>();

  constructor(private readonly maxEntries = 2_000) {}

  async get<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now()) return hit.value as T;
    const pending = this.inflight.get(key);
    if (pending) return pending as Promise<T>;
    const promise = load().then(
      (value) => {
        if (ttlMs > 0) this.set(key, value, ttlMs);
        return value;
      },
    );
    this.inflight.set(key, promise);
    try {
      return await promise;
    } finally {
      this.inflight.delete(key);
    }
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
  }
}

const holder = globalThis as typeof globalThis & { __ffdCache?: TtlCache };

export function cache(): TtlCache {
  holder.__ffdCache ??= new TtlCache();
  return holder.__ffdCache;
}

/** The upstream's account of a key as last read (`GET /account-details`): written at sign-in, read by GET /api/account. */
export function upstreamAccountKey(key: string): string {
  return `${key}:account-upstream`;
}
