import "server-only";

import { Redis } from "ioredis";

import { getConfig } from "./config";

const holder = globalThis as typeof globalThis & { __ffdSharedRedis?: Redis | null };

/**
 * The process's connection to the shared state (REDIS_URL), or null without it (one instance: everything in process).
 * Commands fail within about a second while Redis is unreachable (one retry, a command timeout) instead of waiting
 * for it: each caller decides whether that fails closed (sync lock, sign-in limiter) or open (caches).
 */
export function sharedRedis(): Redis | null {
  if (holder.__ffdSharedRedis === undefined) {
    const { redisUrl } = getConfig();
    holder.__ffdSharedRedis = redisUrl
      ? new Redis(redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 1_000, connectTimeout: 1_000 })
      : null;
    // ioredis reports each failed reconnect on "error"; the callers log what it means for them.
    holder.__ffdSharedRedis?.on("error", () => undefined);
  }
  return holder.__ffdSharedRedis;
}

/** Tests only: the next `sharedRedis()` opens a new connection (REDIS_URL as it is then), as a restarted process would. */
export function resetSharedRedisForTests(): void {
  holder.__ffdSharedRedis?.disconnect();
  delete holder.__ffdSharedRedis;
}
