import "server-only";

import { randomBytes } from "node:crypto";

import type { Redis } from "ioredis";

import type { AcquireAttempt, BudgetStore, Claim, LearnedBudget } from "./budget-store";
import { type Clock, systemClock } from "./clock";
import { LuaScript, shared, sharedName } from "./shared-state";

/**
 * The sliding-window log of `BudgetStore` in Redis, so every instance of the BFF spends one key's budget together.
 * Per key: a sorted set of send times (unique members, scored by time), the pause as a plain key holding its end
 * (with PX, so it goes by itself), the budget a 429 lowered it to (with PX too), and a sorted set of the instances where an interactive request waits (below).
 * Prune + count + add run in one Lua script: atomic, so two instances can never both take the last slot.
 *
 * Times are the callers' clocks (epoch ms): instances must keep their clocks in step (NTP) to well within the
 * budget's safety margin (250 ms).
 */

/**
 * Interactive before bulk across instances: an instance whose interactive request is refused marks the key as wanted
 * until the slot it waits for, plus this much time to take it; bulk requests of every instance are refused while
 * the mark stands, so another instance's bulk work cannot take the slot a click waits for.
 */
const WANT_GRACE_MS = 1_000;
/** While another instance's interactive request waits, bulk work asks again this often (the mark may go early). */
const WANT_POLL_MS = 250;

const ACQUIRE = new LuaScript(`
local now = tonumber(ARGV[1])
local budget = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local claim = ARGV[5]
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local refused = false
local retry = now
local paused = tonumber(redis.call('GET', KEYS[2]) or '0')
if now < paused then
  refused = true
  retry = paused
end
local n = redis.call('ZCARD', KEYS[1])
if n >= budget then
  local entry = redis.call('ZRANGE', KEYS[1], n - budget, n - budget, 'WITHSCORES')
  local free = tonumber(entry[2]) + window
  if free > retry then retry = free end
  refused = true
end
if claim == 'bulk' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  local wanted = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
  if wanted[2] then
    local poll = math.min(tonumber(wanted[2]), now + tonumber(ARGV[8]))
    if poll > retry then retry = poll end
    refused = true
  end
end
if refused then
  if claim == 'interactive' then
    redis.call('ZADD', KEYS[3], retry + tonumber(ARGV[7]), ARGV[6])
    redis.call('PEXPIRE', KEYS[3], math.ceil(retry - now + tonumber(ARGV[7]) + 1))
  end
  return {0, math.ceil(retry)}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], math.ceil(window) + 1)
if claim == 'interactive' then redis.call('ZREM', KEYS[3], ARGV[6]) end
return {1}
`);

/** Extends, never shortens, the pause. */
const PAUSE = new LuaScript(`
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > current then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return 1
`);

/**
 * Compare-and-set of the learned budget: stored only if the value is still the one the caller decided on (ARGV[1];
 * empty: none, or expired by its PX). A plain SET would let an instance that read before another's 429 overwrite the
 * budget that 429 lowered with its own higher one.
 */
const REPLACE_LEARNED = new LuaScript(`
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`);

/** How a learned budget is stored: `budget:sinceMs`. */
const learnedValue = (learned: LearnedBudget): string => `${String(learned.budget)}:${String(learned.sinceMs)}`;

export interface RedisBudgetStoreOptions {
  /** The key of the HMAC naming a key pair in Redis; the same on every instance (derived from the session secret). */
  namingKey: Uint8Array;
  /** For the pause key's expiry only; the same clock as the `RequestBudget`'s. */
  clock?: Clock;
}

export class RedisBudgetStore implements BudgetStore {
  readonly #redis: Redis;
  readonly #namingKey: Uint8Array;
  readonly #clock: Clock;
  /** Names this instance in the members of the logs and in the interactive marks. */
  readonly #instance = randomBytes(8).toString("base64url");
  #sequence = 0;

  constructor(redis: Redis, options: RedisBudgetStoreOptions) {
    this.#redis = redis;
    this.#namingKey = options.namingKey;
    this.#clock = options.clock ?? systemClock;
  }

  async tryAcquire(
    key: string,
    nowMs: number,
    budget: number,
    windowMs: number,
    claim?: Claim,
  ): Promise<AcquireAttempt> {
    const member = `${String(nowMs)}:${this.#instance}:${String(this.#sequence++)}`;
    const reply = await shared(() =>
      ACQUIRE.run(this.#redis, this.#keys(key).slice(0, 3), [
        nowMs,
        budget,
        windowMs,
        member,
        claim ?? "",
        this.#instance,
        WANT_GRACE_MS,
        WANT_POLL_MS,
      ]),
    );
    const [granted, retryAtMs] = reply as [number, number | undefined];
    return granted === 1 ? { granted: true } : { granted: false, retryAtMs: retryAtMs ?? nowMs + windowMs };
  }

  async pauseUntil(key: string, untilMs: number): Promise<void> {
    const until = Math.ceil(untilMs);
    const ttlMs = Math.max(1, until - this.#clock.now());
    const [, pause] = this.#keys(key);
    await shared(() => PAUSE.run(this.#redis, [pause], [until, ttlMs]));
  }

  async pausedUntil(key: string): Promise<number> {
    const [, pause] = this.#keys(key);
    const until = await shared(() => this.#redis.get(pause));
    return until === null ? 0 : Number(until);
  }

  async count(key: string, nowMs: number, windowMs: number): Promise<number> {
    const [log] = this.#keys(key);
    return shared(() => this.#redis.zcount(log, `(${String(nowMs - windowMs)}`, "+inf"));
  }

  /** Stored as `budget:sinceMs`; the key's PX ends it (`nowMs` is not needed: Redis keeps the time). */
  async learned(key: string, _nowMs: number): Promise<LearnedBudget | undefined> {
    const [, , , learned] = this.#keys(key);
    const value = await shared(() => this.#redis.get(learned));
    const [budget, sinceMs] = (value ?? "").split(":").map(Number);
    if (budget === undefined || sinceMs === undefined || !(budget >= 1) || !Number.isFinite(sinceMs)) return undefined;
    return { budget, sinceMs };
  }

  async setLearned(
    key: string,
    learned: LearnedBudget,
    ttlMs: number,
    replacing: LearnedBudget | undefined,
  ): Promise<boolean> {
    const [, , , name] = this.#keys(key);
    const expected = replacing === undefined ? "" : learnedValue(replacing);
    const ttl = Math.max(1, Math.ceil(ttlMs));
    return (await shared(() => REPLACE_LEARNED.run(this.#redis, [name], [expected, learnedValue(learned), ttl]))) === 1;
  }

  /**
   * The log, the pause, the interactive marks and the learned budget of a key, in one hash slot (a Redis Cluster runs
   * the script too).
   */
  #keys(key: string): [string, string, string, string] {
    const name = sharedName("budget", this.#namingKey, key);
    return [`{${name}}:log`, `{${name}}:pause`, `{${name}}:want`, `{${name}}:learned`];
  }
}
