import "server-only";

import { createHash, createHmac } from "node:crypto";

import type { Redis } from "ioredis";

import { FleetApiError, isFleetApiError } from "./errors";

/**
 * What the Redis stores of the client (the budget, the token) have in common: how a key is named in Redis, how a
 * Lua script is run, and the one error every failure of Redis becomes — the client then sends nothing (fail closed).
 */

/**
 * A Redis key name for a key pair's state: an HMAC of the pair's identity under a key every instance shares (derived
 * from the session secret), so a copy of Redis names no key id and gives no way to test guesses of a secret offline.
 */
export function sharedName(kind: string, namingKey: Uint8Array, key: string): string {
  return `ffd:${kind}:${createHmac("sha256", namingKey).update(key).digest("base64url")}`;
}

/** The error a failed Redis call becomes: nothing was sent upstream, and the person is told why. */
export function sharedStateUnavailable(cause: unknown): FleetApiError {
  return new FleetApiError({
    status: 0,
    code: "shared_state_unavailable",
    message: "The state the dashboard's instances share (Redis) is not answering; nothing was sent.",
    cause,
  });
}

/** Runs a Redis call; any failure of Redis is `shared_state_unavailable`. */
export async function shared<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isFleetApiError(error)) throw error;
    throw sharedStateUnavailable(error);
  }
}

/** A Lua script run by its SHA (EVALSHA), loaded once per Redis server (EVAL when the server does not know it yet). */
export class LuaScript {
  readonly #source: string;
  readonly #sha: string;

  constructor(source: string) {
    this.#source = source;
    this.#sha = createHash("sha1").update(source).digest("hex");
  }

  async run(redis: Redis, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.#sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return redis.eval(this.#source, keys.length, ...keys, ...args);
    }
  }
}
