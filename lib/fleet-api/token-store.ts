import "server-only";

import { randomBytes } from "node:crypto";

import type { Redis } from "ioredis";
import { sealData, unsealData } from "iron-session";

import { type Clock, systemClock } from "./clock";
import type { KeyState, TokenEntry } from "./key-state";
import { LuaScript, shared, sharedName } from "./shared-state";

/**
 * Where a key's bearer token is shared between instances, and the lock under which one instance renews it.
 *
 * One process needs none: its `KeyStates` (key-state.ts) hold the token in memory and its one flight per key is the
 * renewal (that is the memory default: `KeyPairAuthDeps.tokens` unset). With several instances, `RedisTokenStore`
 * holds the token (sealed) until it expires, so the instances together make one POST /auth per token lifetime.
 */
export interface SharedToken {
  entry: TokenEntry;
  scopes: string[] | null;
}

export interface TokenStore {
  /** The key's token as an instance stored it, while it has not expired. */
  get(key: string): Promise<SharedToken | undefined>;
  /** Holds the token for every instance until its `expiredAtMs`. */
  put(key: string, token: SharedToken): Promise<void>;
  /** Forgets the key's token if it is still `token` (the upstream refused it), so nobody reads it again. */
  drop(key: string, token: string): Promise<void>;
  /** The key's renewal lock for at most `ttlMs`: a release, or undefined while another instance holds it. */
  lock(key: string, ttlMs: number): Promise<(() => Promise<void>) | undefined>;
}

/** While another instance renews a key's token, this one looks for the new token this often. */
const SHARED_RENEWAL_POLL_MS = 50;

/**
 * The key's token when instances share it: the stored one while usable; otherwise one instance renews it (`post`:
 * one POST /auth) under the key's lock and stores it, while the others wait for it to appear, so all of them together
 * make one POST /auth per token lifetime. In a token's last second the same wait as in one process applies
 * (KeyPairAuth.token). The lock lasts `renewalMs`, as long as a renewal may, so a crashed renewer holds no one up long.
 */
export async function sharedToken(
  tokens: TokenStore,
  key: string,
  state: KeyState,
  clock: Clock,
  renewalMs: number,
  post: () => Promise<TokenEntry>,
): Promise<TokenEntry> {
  /** The stored token if it is one to use: usable, and not the one this process just saw refused or expire. */
  const usable = (stored: SharedToken | undefined): TokenEntry | undefined => {
    if (!stored || stored.entry.token === state.token?.token || clock.now() >= stored.entry.usableUntilMs) return;
    state.token = stored.entry;
    state.scopes = stored.scopes;
    return stored.entry;
  };
  for (;;) {
    const stored = await tokens.get(key);
    const found = usable(stored);
    if (found) return found;
    const last = stored?.entry ?? state.token;
    const now = clock.now();
    if (last && now >= last.usableUntilMs && now < last.expiredAtMs) {
      await clock.sleep(last.expiredAtMs - now);
      continue;
    }
    const release = await tokens.lock(key, renewalMs);
    if (release === undefined) {
      await clock.sleep(SHARED_RENEWAL_POLL_MS);
      continue;
    }
    try {
      // Another instance may have stored a new token between our look and the lock.
      const renewed = usable(await tokens.get(key));
      if (renewed) return renewed;
      const entry = await post();
      await tokens.put(key, { entry, scopes: state.scopes });
      return entry;
    } finally {
      await release();
    }
  }
}

/** Deletes a key only while it still holds the value given: a lock (or token) is released by its owner only. */
const COMPARE_AND_DELETE = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

export interface RedisTokenStoreOptions {
  /** The passwords that seal the token (the session's, `{ id: password }`; the highest id seals, every one unseals). */
  passwords: Record<string, string>;
  /** The key of the HMAC naming a key pair in Redis; the same on every instance. */
  namingKey: Uint8Array;
  clock?: Clock;
}

const isTokenEntry = (value: unknown): value is SharedToken => {
  if (typeof value !== "object" || value === null) return false;
  const { entry, scopes } = value as Partial<SharedToken>;
  return (
    typeof entry?.token === "string" &&
    typeof entry.usableUntilMs === "number" &&
    typeof entry.expiredAtMs === "number" &&
    (scopes === null || (Array.isArray(scopes) && scopes.every((s) => typeof s === "string")))
  );
};

/**
 * The token in Redis, sealed with the session's passwords (iron-session's seal: AES-256-CBC + HMAC), so a copy of
 * Redis holds no usable token; it expires with the token (PX). Key names are HMACs, never a key id.
 */
export class RedisTokenStore implements TokenStore {
  readonly #redis: Redis;
  readonly #passwords: Record<string, string>;
  readonly #namingKey: Uint8Array;
  readonly #clock: Clock;

  constructor(redis: Redis, options: RedisTokenStoreOptions) {
    this.#redis = redis;
    this.#passwords = options.passwords;
    this.#namingKey = options.namingKey;
    this.#clock = options.clock ?? systemClock;
  }

  async get(key: string): Promise<SharedToken | undefined> {
    const sealed = await shared(() => this.#redis.get(this.#name(key)));
    return sealed === null ? undefined : this.#unseal(sealed);
  }

  async put(key: string, token: SharedToken): Promise<void> {
    const ttlMs = Math.ceil(token.entry.expiredAtMs - this.#clock.now());
    if (ttlMs <= 0) return;
    const sealed = await sealData(token, { password: this.#passwords, ttl: Math.ceil(ttlMs / 1000) + 60 });
    await shared(() => this.#redis.set(this.#name(key), sealed, "PX", ttlMs));
  }

  async drop(key: string, token: string): Promise<void> {
    const name = this.#name(key);
    const sealed = await shared(() => this.#redis.get(name));
    if (sealed === null || (await this.#unseal(sealed))?.entry.token !== token) return;
    await shared(() => COMPARE_AND_DELETE.run(this.#redis, [name], [sealed]));
  }

  async lock(key: string, ttlMs: number): Promise<(() => Promise<void>) | undefined> {
    const name = `${this.#name(key)}:renewal`;
    const owner = randomBytes(16).toString("base64url");
    const taken = await shared(() => this.#redis.set(name, owner, "PX", Math.max(1, Math.ceil(ttlMs)), "NX"));
    if (taken !== "OK") return undefined;
    return async () => {
      await shared(() => COMPARE_AND_DELETE.run(this.#redis, [name], [owner]));
    };
  }

  async #unseal(sealed: string): Promise<SharedToken | undefined> {
    try {
      const value = await unsealData<unknown>(sealed, { password: this.#passwords });
      return isTokenEntry(value) ? value : undefined;
    } catch {
      // Sealed under a password no longer configured: as if none were stored; the next renewal replaces it.
      return undefined;
    }
  }

  #name(key: string): string {
    return sharedName("token", this.#namingKey, key);
  }
}
