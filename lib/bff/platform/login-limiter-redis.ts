import "server-only";

import { createHash, randomBytes } from "node:crypto";

import type { Redis } from "ioredis";

import { BffError } from "../http/errors";
import { now } from "./clock";
import { logger } from "./log";
import {
  ADDRESS_LIMIT,
  forgetLoginFailuresForTests,
  hashedKeyId,
  KEY_FORGET_AFTER_MS,
  keyWaitAfter,
  type LoginLimiter,
  memoryLoginLimiter,
} from "./login-limiter";
import { sharedRedis } from "./redis";

// One failure, atomically: the key id's run of failures (forgotten a day after the last one: the key's expiry) and,
// behind a trusted proxy, the address's sliding window (a sorted set of failure times, trimmed to the window).
const RECORD_FAILURE = `
redis.call("HINCRBY", KEYS[1], "consecutive", 1)
redis.call("HSET", KEYS[1], "lastAtMs", ARGV[1])
redis.call("PEXPIRE", KEYS[1], ARGV[2])
if #KEYS > 1 then
  redis.call("ZREMRANGEBYSCORE", KEYS[2], "-inf", tonumber(ARGV[1]) - tonumber(ARGV[3]))
  redis.call("ZADD", KEYS[2], ARGV[1], ARGV[4])
  redis.call("PEXPIRE", KEYS[2], ARGV[3])
end
return 1`;

const keyName = (keyId: string) => `ffd:login:key:${hashedKeyId(keyId)}`;
const addressName = (address: string) =>
  `ffd:login:address:${createHash("sha256").update(address).digest("base64url")}`;

/**
 * The failed-sign-in limiter shared by every instance (REDIS_URL): the same rules as in process (login-limiter.ts),
 * kept in Redis. Fails closed: while Redis is unreachable a sign-in gets a 503, never an unthrottled check upstream.
 * Key ids and addresses appear in key names only hashed.
 */
export class RedisLoginLimiter implements LoginLimiter {
  constructor(private readonly redis: Redis) {}

  async waitMs(keyId: string, address: string | null): Promise<number> {
    const t = now();
    const [failures, times] = await shared(() =>
      Promise.all([
        this.redis.hmget(keyName(keyId), "consecutive", "lastAtMs"),
        address === null
          ? Promise.resolve([])
          : this.redis.zrangebyscore(addressName(address), `(${String(t - ADDRESS_LIMIT.windowMs)}`, "+inf"),
      ]),
    );
    let wait = 0;
    const [consecutive, lastAtMs] = failures.map(Number);
    if (consecutive !== undefined && lastAtMs !== undefined && consecutive > 0)
      wait = Math.max(0, lastAtMs + keyWaitAfter(consecutive) - t);
    const oldest = times[times.length - ADDRESS_LIMIT.max];
    if (times.length >= ADDRESS_LIMIT.max && oldest !== undefined)
      wait = Math.max(wait, Number(oldest) + ADDRESS_LIMIT.windowMs - t);
    return wait;
  }

  async recordFailure(keyId: string, address: string | null): Promise<void> {
    const t = now();
    const keys = address === null ? [keyName(keyId)] : [keyName(keyId), addressName(address)];
    // The member is unique per failure: two failures in one millisecond both count.
    const member = `${String(t)}:${randomBytes(6).toString("base64url")}`;
    await shared(() =>
      this.redis.eval(
        RECORD_FAILURE,
        keys.length,
        ...keys,
        String(t),
        String(KEY_FORGET_AFTER_MS),
        String(ADDRESS_LIMIT.windowMs),
        member,
      ),
    );
  }

  async recordSuccess(keyId: string): Promise<void> {
    try {
      await this.redis.del(keyName(keyId));
    } catch (error) {
      // The sign-in succeeded; an unreset run only makes this key's next typo wait sooner (never less safe).
      logger().warn(
        { err: error instanceof Error ? error.message : String(error) },
        "shared state (Redis) unreachable",
      );
    }
  }
}

/** A Redis call, or the 503 that says the shared state is unreachable (one log line, without the URL). */
async function shared<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    logger().error({ err: error instanceof Error ? error.message : String(error) }, "shared state (Redis) unreachable");
    throw sharedStateUnavailable();
  }
}

export function sharedStateUnavailable(): BffError {
  return new BffError(
    "shared_state_unavailable",
    "The dashboard's shared state (Redis) cannot be reached, so it cannot safely do this now. Please try again in a minute; if it persists, tell the dashboard's operator.",
    { "Retry-After": "30" },
  );
}

const holder = globalThis as typeof globalThis & { __ffdLoginLimiter?: LoginLimiter };

/** The process's limiter: in Redis with REDIS_URL, in process without. */
export function loginLimiter(): LoginLimiter {
  if (!holder.__ffdLoginLimiter) {
    const redis = sharedRedis();
    holder.__ffdLoginLimiter = redis ? new RedisLoginLimiter(redis) : memoryLoginLimiter;
  }
  return holder.__ffdLoginLimiter;
}

/** Tests only: the next `loginLimiter()` is made anew, as after a restart (in process: with no failures remembered). */
export function resetLoginLimiterForTests(): void {
  delete holder.__ffdLoginLimiter;
  forgetLoginFailuresForTests();
}
