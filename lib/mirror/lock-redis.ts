import { createHash, randomBytes } from "node:crypto";

import type { Redis } from "ioredis";

import { type SyncLease, SyncLeaseLost, type SyncLock } from "./lock";

/** How long a lease lasts without renewal: a dead holder's customer is free again after at most this long. */
const DEFAULT_SYNC_LEASE_MS = 30_000;

// Compare-and-delete and compare-and-extend: only the holder of the token may release or renew the lease (a holder
// that lost it — paused past the lease, then back — must not end or extend the next holder's).
const RELEASE = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`;
const RENEW = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end`;

export interface RedisSyncLockOptions {
  leaseMs?: number;
  /** Told when a renewal finds the lease gone or fails (the sync runs on; another instance may take over after the lease). */
  onLost?: (customerId: string, reason: string) => void;
}

/**
 * One sync per customer across every app instance sharing Redis: `SET key token NX PX lease` with a random token,
 * renewed every third of the lease while the sync runs, released by a compare-and-delete script. When the holder dies
 * (process killed, host gone, Redis unreachable from it) its renewals stop and the key expires: another instance takes
 * over within one lease. Key names carry a hash of the customer id, not the id.
 */
export class RedisSyncLock implements SyncLock {
  readonly #redis: Redis;
  readonly #leaseMs: number;
  readonly #onLost: (customerId: string, reason: string) => void;

  constructor(redis: Redis, options: RedisSyncLockOptions = {}) {
    this.#redis = redis;
    this.#leaseMs = options.leaseMs ?? DEFAULT_SYNC_LEASE_MS;
    this.#onLost = options.onLost ?? (() => undefined);
  }

  /** Throws when Redis cannot be reached: no sync then (fail closed — two instances must never sync one customer at once). */
  async tryAcquire(customerId: string): Promise<SyncLease | undefined> {
    const key = syncLockKey(customerId);
    const token = randomBytes(16).toString("base64url");
    const set = await this.#redis.set(key, token, "PX", this.#leaseMs, "NX");
    if (set !== "OK") return undefined;
    let released = false;
    /** Set once a renewal found the lease gone: no GET needed to know it then. */
    let lost = false;
    const renew = async () => {
      try {
        const extended = await this.#redis.eval(RENEW, 1, key, token, String(this.#leaseMs));
        if (extended !== 1 && !released) {
          lost = true;
          clearInterval(timer);
          this.#onLost(customerId, "the lease had expired");
        }
      } catch (error) {
        // Keep trying on the next tick: a short outage within the lease loses nothing.
        if (!released) this.#onLost(customerId, error instanceof Error ? error.message : String(error));
      }
    };
    const timer = setInterval(() => void renew(), Math.max(1, Math.floor(this.#leaseMs / 3)));
    timer.unref(); // a renewal never keeps a finished process alive
    return {
      // Asked before each write: the renewal runs only every third of the lease, and a lease can also be lost between
      // renewals (the holder paused past it, Redis restarted). A Redis that does not answer is a lost lease too
      // (fail closed). What this cannot close is the moment between this answer and the write itself; the lease is
      // 30 s and a write batch takes milliseconds, so only a holder paused in exactly that moment could still write.
      confirm: async () => {
        if (lost || released) throw new SyncLeaseLost(customerId);
        let holder: string | null;
        try {
          holder = await this.#redis.get(key);
        } catch {
          holder = null;
        }
        if (holder !== token) {
          lost = true;
          clearInterval(timer);
          throw new SyncLeaseLost(customerId);
        }
      },
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(timer);
        try {
          await this.#redis.eval(RELEASE, 1, key, token);
        } catch {
          // Redis unreachable: the lease expires by itself within leaseMs; the sync's outcome stands.
        }
      },
    };
  }
}

export function syncLockKey(customerId: string): string {
  return `ffd:sync-lock:${createHash("sha256").update(customerId).digest("base64url")}`;
}
