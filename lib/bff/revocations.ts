import "server-only";
import { Redis } from "ioredis";
import { getConfig } from "./config";
import { now } from "./clock";

/**
 * Ended sessions. A sealed cookie cannot be recalled, so logout puts the session id here until the cookie would
 * have expired anyway; every request checks it. Memory by default (one instance); Redis when REDIS_URL is set, so
 * every instance sees a logout.
 */
export interface RevocationStore {
  revoke(sid: string, untilMs: number): Promise<void>;
  isRevoked(sid: string): Promise<boolean>;
}

export class MemoryRevocationStore implements RevocationStore {
  private readonly revoked = new Map<string, number>();
  revoke(sid: string, untilMs: number): Promise<void> {
    this.revoked.set(sid, untilMs);
    if (this.revoked.size % 256 === 0) this.sweep();
    return Promise.resolve();
  }
  isRevoked(sid: string): Promise<boolean> {
    const until = this.revoked.get(sid);
    return Promise.resolve(until !== undefined && until > now());
  }
  private sweep(): void {
    const t = now();
    for (const [sid, until] of this.revoked) if (until <= t) this.revoked.delete(sid);
  }
}

export class RedisRevocationStore implements RevocationStore {
  constructor(private readonly redis: Redis) {}
  async revoke(sid: string, untilMs: number): Promise<void> {
    await this.redis.set(`ffd:revoked:${sid}`, "1", "PX", Math.max(1, untilMs - now()));
  }
  async isRevoked(sid: string): Promise<boolean> {
    return (await this.redis.exists(`ffd:revoked:${sid}`)) === 1;
  }
}

const holder = globalThis as typeof globalThis & { __ffdRevocations?: RevocationStore };

export function revocations(): RevocationStore {
  if (!holder.__ffdRevocations) {
    const url = getConfig().redisUrl;
    holder.__ffdRevocations = url ? new RedisRevocationStore(new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 })) : new MemoryRevocationStore();
  }
  return holder.__ffdRevocations;
}
