import "server-only";

import { createHmac, randomBytes } from "node:crypto";

import { type Clock, systemClock } from "./clock";
import type { Credentials } from "./credentials";

/**
 * Credential checks are a resource the whole deployment shares. Every user reaches the provider from this server's
 * one address, and the provider answers 429 to *every* key-pair check (POST /auth, HTTP Basic) from an address that
 * failed about 20 of them in a minute. So a check that may fail is rationed here, whoever causes it (a sign-in, the
 * re-authentication after a 401, the Basic fallback), and what the provider said about a pair is remembered, so the
 * same refused pair is not asked about again and again (a revoked key's 20 open sessions cost one check, not 20).
 *
 * Words: the failed checks an address may cause per minute are the *allowance* (shared by every key, counted per
 * address); a key's requests per window are its *budget* (budget.ts). The two never share a count.
 */

/** What the provider last said about one key pair. */
export type PairVerdict =
  | { kind: "verified" }
  /** Wrong secret, unknown or revoked key, a malformed pair: the provider's code and (redacted) message. */
  | { kind: "refused"; code: "unauthenticated" | "invalid_credentials" | "bad_request"; message: string }
  /** The key's allow-list does not include this server's address (alternative description). */
  | { kind: "address_refused"; message: string };

/**
 * Where verdicts live, keyed by a pair's identity (an HMAC, never the secret). Memory per process in the bare client;
 * the BFF keeps them on disk (credential-checks-sqlite.ts), or in Redis with REDIS_URL (credential-checks-redis.ts),
 * under a pepper derived from the session secret, so they outlive a restart and every instance reads the same ones.
 */
export interface PairVerdictStore {
  get(pairId: string, nowMs: number): Promise<PairVerdict | undefined>;
  /** Replaces the pair's verdict until `untilMs`. */
  set(pairId: string, verdict: PairVerdict, untilMs: number): Promise<void>;
}

const REFUSED_CODES = new Set(["unauthenticated", "invalid_credentials", "bad_request"]);

/**
 * A stored verdict (JSON), checked: a file or Redis is read like any input, never trusted as typed. Undefined when it
 * is not one, or when its `untilMs` (if stored) has passed by the caller's clock.
 */
export function parseStoredVerdict(value: string | null | undefined, nowMs: number): PairVerdict | undefined {
  if (value === null || value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const v = parsed as Record<string, unknown>;
  if (typeof v.untilMs === "number" && v.untilMs <= nowMs) return undefined;
  if (v.kind === "verified") return { kind: "verified" };
  if (v.kind === "address_refused" && typeof v.message === "string")
    return { kind: "address_refused", message: v.message };
  if (v.kind === "refused" && typeof v.message === "string" && typeof v.code === "string" && REFUSED_CODES.has(v.code))
    return {
      kind: "refused",
      code: v.code as "unauthenticated" | "invalid_credentials" | "bad_request",
      message: v.message,
    };
  return undefined;
}

/** A verdict as stored: its fields and when it ends (so a reader with a moved clock still honours the end). */
export const storedVerdict = (verdict: PairVerdict, untilMs: number): string => JSON.stringify({ ...verdict, untilMs });

/** Verdicts held in memory at once; past it the oldest go first, so a flood of made-up pairs cannot grow memory. */
const MAX_VERDICTS = 10_000;

export class MemoryPairVerdictStore implements PairVerdictStore {
  readonly #entries = new Map<string, { verdict: PairVerdict; untilMs: number }>();

  get size(): number {
    return this.#entries.size;
  }

  get(pairId: string, nowMs: number): Promise<PairVerdict | undefined> {
    const entry = this.#entries.get(pairId);
    if (entry !== undefined && entry.untilMs <= nowMs) this.#entries.delete(pairId);
    return Promise.resolve(entry !== undefined && entry.untilMs > nowMs ? entry.verdict : undefined);
  }

  set(pairId: string, verdict: PairVerdict, untilMs: number): Promise<void> {
    this.#entries.delete(pairId); // re-inserted last: the Map's order is the eviction order
    this.#entries.set(pairId, { verdict, untilMs });
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= MAX_VERDICTS) break;
      this.#entries.delete(oldest);
    }
    return Promise.resolve();
  }
}

/**
 * A pair's identity for the verdict store: HMAC-SHA256 under a pepper that never leaves the server's memory (or its
 * configuration), so a copy of the store gives no way to test guesses of a secret offline.
 */
export function pairIdentity(credentials: Credentials, pepper: Uint8Array): string {
  return createHmac("sha256", pepper).update(`${credentials.keyId}\u0000${credentials.secret}`).digest("base64url");
}

export const randomPepper = (): Uint8Array => randomBytes(32);

/** A place in the failed-check allowance, taken before a check that may fail. */
export interface CheckTicket {
  /** `failed`: the provider refused the pair (counts); `passed` or `unchecked` (no verdict: 429, 5xx, no answer) give the place back. */
  settle(outcome: "passed" | "failed" | "unchecked"): Promise<void>;
}

/**
 * The failed-check allowance of the deployment's address: in this process (`FailedCheckLimiter`) or, with several
 * instances behind one address, in Redis (`RedisFailedCheckLimiter`, credential-checks-redis.ts) under the same rules.
 */
export interface FailedCheckAllowance {
  /** A place for one check, or how long until there may be one. */
  tryBegin(): Promise<{ ticket: CheckTicket } | { retryAfterMs: number }>;
  /** A check that took no place (a pair known good) failed after all: it counts. */
  recordFailure(): Promise<void>;
}

export interface FailedCheckLimiterOptions {
  /** Failed checks allowed in any window; default 16, under the provider's ~20 a minute per address. */
  max?: number;
  windowMs?: number;
  clock?: Clock;
}

/**
 * Sized from what it protects, the provider's ~20 failed checks a minute per address, less a margin for failures that
 * took no place (a pair known good that fails after all, `recordFailure`). Not smaller: before asking, a never-used
 * valid key cannot be told from a made-up one, so every place below the provider's own limit that the allowance
 * withholds is one an attacker's random key ids take from new users. It is above the per-address sign-in limit (10 in
 * 15 minutes behind a trusted proxy, lib/bff/platform/login-limiter.ts), so one client address cannot spend it alone.
 */
export const DEFAULT_FAILED_CHECKS = 16;

/**
 * Failed key-pair checks of this process in a sliding window (so no 60-second window of the provider's, however
 * aligned, sees more than `max`). A check that may fail takes a place first and gives it back unless it failed;
 * checks still running hold theirs, so a burst of parallel guesses cannot overshoot. A check of a pair recognised as
 * valid takes no place (an attacker's failures must not lock out a user whose pair is known good), but counts if it
 * fails after all (`recordFailure`).
 */
export class FailedCheckLimiter implements FailedCheckAllowance {
  readonly max: number;
  readonly #windowMs: number;
  readonly #clock: Clock;
  /** Failure times, ascending. */
  #failures: number[] = [];
  #inFlight = 0;

  constructor(options: FailedCheckLimiterOptions = {}) {
    this.max = options.max ?? DEFAULT_FAILED_CHECKS;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#clock = options.clock ?? systemClock;
    if (!Number.isInteger(this.max) || this.max < 1)
      throw new RangeError(`max must be a positive integer, got ${String(this.max)}`);
  }

  /** Failed checks in the window ending now. */
  failuresInWindow(): number {
    this.#prune();
    return this.#failures.length;
  }

  /** A place for one check, or how long until there may be one. */
  tryBegin(): Promise<{ ticket: CheckTicket } | { retryAfterMs: number }> {
    return Promise.resolve(this.#tryBegin());
  }

  #tryBegin(): { ticket: CheckTicket } | { retryAfterMs: number } {
    this.#prune();
    const failed = this.#failures.length;
    if (failed + this.#inFlight >= this.max) {
      // Over by failures: wait until enough leave the window. Full only of running checks: they end within seconds.
      const oldestThatMustLeave = this.#failures[failed - this.max];
      const retryAfterMs =
        failed >= this.max && oldestThatMustLeave !== undefined
          ? oldestThatMustLeave + this.#windowMs - this.#clock.now()
          : 1_000;
      return { retryAfterMs: Math.max(1_000, retryAfterMs) };
    }
    this.#inFlight++;
    let isSettled = false;
    return {
      ticket: {
        settle: (outcome) => {
          if (isSettled) return Promise.resolve();
          isSettled = true;
          this.#inFlight--;
          return outcome === "failed" ? this.recordFailure() : Promise.resolve();
        },
      },
    };
  }

  recordFailure(): Promise<void> {
    this.#prune();
    this.#failures.push(this.#clock.now());
    return Promise.resolve();
  }

  #prune(): void {
    const edge = this.#clock.now() - this.#windowMs;
    let drop = 0;
    while (drop < this.#failures.length && (this.#failures[drop] ?? Infinity) <= edge) drop++;
    if (drop > 0) this.#failures = this.#failures.slice(drop);
  }
}
