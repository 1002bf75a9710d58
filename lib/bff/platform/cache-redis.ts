import "server-only";

import { createHash } from "node:crypto";

import type { Redis } from "ioredis";

import { logger } from "./log";
import { sharedRedis } from "./redis";

const PREFIX = "ffd:cache:";

/**
 * Where entries are shared between app instances (Redis with REDIS_URL: RedisCacheStore below). Fails open: `read` answers
 * undefined and `write`/`forget` do nothing while it is unreachable — a cache miss costs an upstream call, which the
 * request budget still guards.
 */
export interface SharedCacheStore {
  /** The entry and the milliseconds it has left, or undefined. */
  read(key: string): Promise<{ value: unknown; ttlMs: number } | undefined>;
  write(key: string, value: unknown, ttlMs: number): Promise<void>;
  forget(prefix: string): Promise<void>;
}

/**
 * The shareable cache entries in Redis: JSON values with PX (Redis expires them), key names
 * `ffd:cache:<credential hash>:<hash of the rest>` — the credential hash is already a one-way hash of the key pair,
 * the rest (what is cached, for which input) is hashed too, so nothing of a customer's queries is readable in a name,
 * and a customer's entries can still be found by prefix (logout). Fails open with one log line per outage.
 */
export class RedisCacheStore implements SharedCacheStore {
  #down = false;

  constructor(
    private readonly redis: Redis,
    private readonly log: (level: "warn" | "info", message: string, fields?: object) => void = (
      level,
      message,
      fields,
    ) => {
      logger()[level](fields ?? {}, message);
    },
  ) {}

  async read(key: string): Promise<{ value: unknown; ttlMs: number } | undefined> {
    try {
      const name = redisName(key);
      const [[, json], [, ttlMs]] = ((await this.redis.multi().get(name).pttl(name).exec()) ?? []) as [
        [unknown, string | null],
        [unknown, number],
      ];
      this.up();
      return json === null || ttlMs <= 0 ? undefined : { value: JSON.parse(json) as unknown, ttlMs };
    } catch (error) {
      this.failed(error);
      return undefined;
    }
  }

  async write(key: string, value: unknown, ttlMs: number): Promise<void> {
    try {
      await this.redis.set(redisName(key), JSON.stringify(value), "PX", Math.max(1, Math.ceil(ttlMs)));
      this.up();
    } catch (error) {
      this.failed(error);
    }
  }

  async forget(prefix: string): Promise<void> {
    try {
      // SCAN (not KEYS): it never blocks Redis; a customer has a handful of entries.
      const stream = this.redis.scanStream({ match: `${PREFIX}${escapeGlob(prefix)}*`, count: 500 });
      for await (const names of stream as AsyncIterable<string[]>) if (names.length > 0) await this.redis.del(...names);
      this.up();
    } catch (error) {
      this.failed(error);
    }
  }

  private up(): void {
    if (this.#down) this.log("info", "shared cache (Redis) reachable again");
    this.#down = false;
  }

  /** One log line when the outage starts, not one per request: the caches work on, without sharing. */
  private failed(error: unknown): void {
    if (this.#down) return;
    this.#down = true;
    this.log("warn", "shared cache (Redis) unreachable: caching in this process only until it is back", {
      err: error instanceof Error ? error.message : String(error),
    });
  }
}

function redisName(key: string): string {
  const at = key.indexOf(":");
  const customer = at < 0 ? key : key.slice(0, at);
  const rest = at < 0 ? "" : key.slice(at + 1);
  return `${PREFIX}${customer}:${createHash("sha256").update(rest).digest("base64url")}`;
}

const escapeGlob = (s: string) => s.replace(/[*?[\]\\]/g, "\\$&");

/** The shared store with REDIS_URL, undefined without (caches stay in process). */
export function sharedCacheStore(): SharedCacheStore | undefined {
  const redis = sharedRedis();
  return redis ? new RedisCacheStore(redis) : undefined;
}
