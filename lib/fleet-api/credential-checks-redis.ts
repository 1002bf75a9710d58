import "server-only";

import { randomBytes } from "node:crypto";

import type { Redis } from "ioredis";

import { type Clock, systemClock } from "./clock";
import {
  type CheckTicket,
  DEFAULT_FAILED_CHECKS,
  type FailedCheckAllowance,
  type PairVerdict,
  type PairVerdictStore,
  parseStoredVerdict,
  storedVerdict,
} from "./credential-checks";
import { LuaScript, shared } from "./shared-state";

/**
 * The failed-check allowance and the pair verdicts of credential-checks.ts in Redis, so every instance behind the
 * deployment's one address spends one allowance (three instances must not let 48 failed checks a minute reach a
 * provider that locks the address out at about 20) and knows what the provider said about a pair on any of them.
 *
 * Redis failing is `shared_state_unavailable` (shared-state.ts): a check that may fail is then refused, never sent
 * uncounted.
 */

/**
 * The allowance is the address's, not a key's: one sorted set of failure times and one of the places running checks
 * hold (scored by when the place lapses), in one hash slot. Times are the callers' clocks (epoch ms), as for the budget.
 */
const FAILURES = "ffd:checks:{allowance}:failures";
const RUNNING = "ffd:checks:{allowance}:running";

/** Prune, count failures and running places, take a place: atomic, so two instances never both take the last one. */
const TRY_BEGIN = new LuaScript(`
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
local lease = tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local failed = redis.call('ZCARD', KEYS[1])
local running = redis.call('ZCARD', KEYS[2])
if failed + running >= max then
  local retry = 1000
  if failed >= max then
    local entry = redis.call('ZRANGE', KEYS[1], failed - max, failed - max, 'WITHSCORES')
    retry = tonumber(entry[2]) + window - now
  end
  return {0, math.ceil(retry)}
end
redis.call('ZADD', KEYS[2], now + lease, ARGV[4])
redis.call('PEXPIRE', KEYS[2], math.ceil(lease) + 1)
return {1}
`);

/** Gives the place back and, for a failed check, counts the failure (ARGV[3]: '1'). */
const SETTLE = new LuaScript(`
redis.call('ZREM', KEYS[2], ARGV[2])
if ARGV[3] == '1' then
  redis.call('ZADD', KEYS[1], tonumber(ARGV[1]), ARGV[2])
  redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[4])) + 1)
end
return 1
`);

export interface RedisFailedCheckLimiterOptions {
  /** Failed checks allowed in any window, over all instances; default 16, as in process. */
  max?: number;
  windowMs?: number;
  /**
   * How long a running check holds its place at most: the place of an instance killed mid-check lapses then. At least
   * the window, so a failure whose settling Redis missed still held its place for a window (it counted). Default: two
   * windows (a check waits for a budget slot, then for the provider's answer).
   */
  placeLeaseMs?: number;
  clock?: Clock;
}

/** `FailedCheckLimiter`'s rules (credential-checks.ts), shared by every instance on one Redis. */
export class RedisFailedCheckLimiter implements FailedCheckAllowance {
  readonly max: number;
  readonly #redis: Redis;
  readonly #windowMs: number;
  readonly #leaseMs: number;
  readonly #clock: Clock;
  /** Names this instance in the members of the sets, so two instances' places and failures never collide. */
  readonly #instance = randomBytes(8).toString("base64url");
  #sequence = 0;

  constructor(redis: Redis, options: RedisFailedCheckLimiterOptions = {}) {
    this.#redis = redis;
    this.max = options.max ?? DEFAULT_FAILED_CHECKS;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#leaseMs = Math.max(this.#windowMs, options.placeLeaseMs ?? 2 * this.#windowMs);
    this.#clock = options.clock ?? systemClock;
    if (!Number.isInteger(this.max) || this.max < 1)
      throw new RangeError(`max must be a positive integer, got ${String(this.max)}`);
  }

  /** Failed checks in the window ending now, over all instances. */
  failuresInWindow(): Promise<number> {
    const edge = this.#clock.now() - this.#windowMs;
    return shared(() => this.#redis.zcount(FAILURES, `(${String(edge)}`, "+inf"));
  }

  async tryBegin(): Promise<{ ticket: CheckTicket } | { retryAfterMs: number }> {
    const member = this.#member();
    const reply = await shared(() =>
      TRY_BEGIN.run(
        this.#redis,
        [FAILURES, RUNNING],
        [this.#clock.now(), this.#windowMs, this.max, member, this.#leaseMs],
      ),
    );
    const [granted, retryAfterMs] = reply as [number, number | undefined];
    if (granted !== 1) return { retryAfterMs: Math.max(1_000, retryAfterMs ?? this.#windowMs) };
    let isSettled = false;
    return {
      ticket: {
        settle: async (outcome) => {
          if (isSettled) return;
          isSettled = true;
          await this.#settle(member, outcome === "failed");
        },
      },
    };
  }

  recordFailure(): Promise<void> {
    return this.#settle(this.#member(), true);
  }

  async #settle(member: string, failed: boolean): Promise<void> {
    await shared(() =>
      SETTLE.run(this.#redis, [FAILURES, RUNNING], [this.#clock.now(), member, failed ? "1" : "0", this.#windowMs]),
    );
  }

  #member(): string {
    return `${this.#instance}:${String(this.#sequence++)}`;
  }
}

/** Verdict keys: the pair's identity (an HMAC under the shared pepper) and nothing else about the pair. */
const verdictName = (pairId: string) => `ffd:verdict:${pairId}`;

/** Verdicts in Redis (SET with PX, GET), so every instance shares them; Redis ends each at its time. */
export class RedisPairVerdictStore implements PairVerdictStore {
  readonly #redis: Redis;
  readonly #clock: Clock;

  /** `clock`: for the expiry only; the same clock as the client's. */
  constructor(redis: Redis, options: { clock?: Clock } = {}) {
    this.#redis = redis;
    this.#clock = options.clock ?? systemClock;
  }

  async get(pairId: string, nowMs: number): Promise<PairVerdict | undefined> {
    // Redis ends each verdict by its own clock; the stored end holds by the caller's too (instances' clocks differ).
    return parseStoredVerdict(await shared(() => this.#redis.get(verdictName(pairId))), nowMs);
  }

  async set(pairId: string, verdict: PairVerdict, untilMs: number): Promise<void> {
    const ttlMs = Math.ceil(untilMs - this.#clock.now());
    if (ttlMs <= 0) return;
    await shared(() => this.#redis.set(verdictName(pairId), storedVerdict(verdict, untilMs), "PX", ttlMs));
  }
}
