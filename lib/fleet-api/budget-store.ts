import "server-only";

/** Where a key's send times live: the sliding-window log behind `RequestBudget` (./budget.ts). */

export type AcquireAttempt = { granted: true } | { granted: false; retryAtMs: number };

/**
 * Who asks for the slot, for a store shared by several instances: an `interactive` request refused there holds back
 * the `bulk` requests of every instance until it is served (budget-store-redis.ts). A store of one process ignores it:
 * its one queue already serves interactive first.
 */
export type Claim = "interactive" | "bulk";

/** A key's budget as lowered by a 429 (`RequestBudget.noteRateLimited`), and when: it recovers from then. */
export interface LearnedBudget {
  budget: number;
  sinceMs: number;
}

/**
 * Where send times live: in memory (one process, the default), or in Redis (budget-store-redis.ts: a sorted set per
 * key scored by send time, with unique members, and a Lua script doing prune + count + add atomically; the pause as a
 * plain key with PX) so several BFF instances share one key's budget.
 */
export interface BudgetStore {
  /**
   * Atomically: drop entries at or before `nowMs - windowMs`; if the key is not paused and fewer than `budget` remain,
   * record `nowMs` and return `{granted: true}`. Otherwise return `{granted: false, retryAtMs}`: the earliest time a
   * send could be granted, i.e. the later of the pause's end and the time enough entries leave the window to get below
   * `budget` (the oldest entry's when the window holds exactly `budget`).
   */
  tryAcquire(key: string, nowMs: number, budget: number, windowMs: number, claim?: Claim): Promise<AcquireAttempt>;
  /** No sends for this key before `untilMs`; extends, never shortens, an existing pause. */
  pauseUntil(key: string, untilMs: number): Promise<void>;
  /** When this key's pause ends (epoch ms; 0 when it has none): read only. */
  pausedUntil(key: string): Promise<number>;
  /** Sends recorded for this key in the window ending at `nowMs` (read only; Redis: ZCOUNT). */
  count(key: string, nowMs: number, windowMs: number): Promise<number>;
  /**
   * The budget a 429 lowered this key to, shared like the log (a 429 met by one instance slows every instance), or
   * undefined when none is known at `nowMs`.
   */
  learned(key: string, nowMs: number): Promise<LearnedBudget | undefined>;
  /**
   * Records a lowered budget, kept `ttlMs` (long enough to have recovered by then), only if the one stored is still
   * `replacing` (what `learned` answered when the caller decided; undefined: none, or expired) — atomically, so an
   * instance deciding on an older view never overwrites a budget another instance has lowered since. False when it
   * was not stored (the caller reads again and decides on the new value).
   */
  setLearned(
    key: string,
    learned: LearnedBudget,
    ttlMs: number,
    replacing: LearnedBudget | undefined,
  ): Promise<boolean>;
}

/** Below this many dropped entries a log is not worth copying down. */
const COMPACT_MIN_DROPPED = 64;

interface SendLog {
  /** Send times, ascending; entries before `head` are already out of the window. */
  times: number[];
  head: number;
  pausedUntilMs: number;
  /** The window of the last call, so the idle sweep knows when this log has emptied. */
  windowMs: number;
}

/** Index of the first entry of `log` still inside the window ending at `nowMs` (binary search from `head`). */
const firstInWindow = (log: SendLog, nowMs: number, windowMs: number): number => {
  const edge = nowMs - windowMs;
  let lo = log.head;
  let hi = log.times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((log.times[mid] ?? Infinity) <= edge) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/** Index of the first entry after `t`, so equal times keep their arrival order. */
const insertionIndex = (log: SendLog, t: number): number => {
  let lo = log.head;
  let hi = log.times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((log.times[mid] ?? Infinity) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/** In-process sliding-window log per key. Idle keys are swept out at most once per window, so memory follows activity. */
export class MemoryBudgetStore implements BudgetStore {
  readonly #logs = new Map<string, SendLog>();
  /** Only keys that met a 429 appear here; an entry goes when read after its time is up. */
  readonly #learned = new Map<string, LearnedBudget & { untilMs: number }>();
  #lastSweepMs = Number.NEGATIVE_INFINITY;

  /** Keys currently tracked (for tests and metrics). */
  get size(): number {
    return this.#logs.size;
  }

  /** `claim` is not needed here: this process's one queue per key already serves interactive first. */
  tryAcquire(key: string, nowMs: number, budget: number, windowMs: number, _claim?: Claim): Promise<AcquireAttempt> {
    this.#sweep(nowMs, windowMs);
    const log = this.#logs.get(key) ?? { times: [], head: 0, pausedUntilMs: Number.NEGATIVE_INFINITY, windowMs };
    this.#logs.set(key, log);
    log.windowMs = windowMs;
    log.head = firstInWindow(log, nowMs, windowMs);
    compact(log);

    const inWindow = log.times.length - log.head;
    // With `inWindow >= budget`, a send is allowed once the first `inWindow - budget + 1` entries have left.
    const windowRetryAtMs =
      inWindow >= budget ? (log.times[log.head + inWindow - budget] ?? nowMs) + windowMs : Number.NEGATIVE_INFINITY;
    if (nowMs < log.pausedUntilMs || inWindow >= budget) {
      return Promise.resolve({ granted: false, retryAtMs: Math.max(log.pausedUntilMs, windowRetryAtMs) });
    }
    const last = log.times[log.times.length - 1];
    if (last === undefined || last <= nowMs) log.times.push(nowMs);
    else log.times.splice(insertionIndex(log, nowMs), 0, nowMs); // the clock stepped back: keep the log sorted
    return Promise.resolve({ granted: true });
  }

  pauseUntil(key: string, untilMs: number): Promise<void> {
    const log = this.#logs.get(key);
    if (log) log.pausedUntilMs = Math.max(log.pausedUntilMs, untilMs);
    else this.#logs.set(key, { times: [], head: 0, pausedUntilMs: untilMs, windowMs: 0 });
    return Promise.resolve();
  }

  pausedUntil(key: string): Promise<number> {
    return Promise.resolve(Math.max(0, this.#logs.get(key)?.pausedUntilMs ?? 0));
  }

  count(key: string, nowMs: number, windowMs: number): Promise<number> {
    const log = this.#logs.get(key);
    return Promise.resolve(log ? log.times.length - firstInWindow(log, nowMs, windowMs) : 0);
  }

  learned(key: string, nowMs: number): Promise<LearnedBudget | undefined> {
    const entry = this.#learned.get(key);
    if (entry === undefined) return Promise.resolve(undefined);
    if (entry.untilMs <= nowMs) {
      this.#learned.delete(key);
      return Promise.resolve(undefined);
    }
    return Promise.resolve({ budget: entry.budget, sinceMs: entry.sinceMs });
  }

  setLearned(
    key: string,
    learned: LearnedBudget,
    ttlMs: number,
    replacing: LearnedBudget | undefined,
  ): Promise<boolean> {
    const entry = this.#learned.get(key);
    const current = entry === undefined || entry.untilMs <= learned.sinceMs ? undefined : entry;
    if (current?.budget !== replacing?.budget || current?.sinceMs !== replacing?.sinceMs) return Promise.resolve(false);
    this.#learned.set(key, { ...learned, untilMs: learned.sinceMs + ttlMs });
    return Promise.resolve(true);
  }

  /** Drops keys with no send in their window and no pause ahead; O(keys), at most once per window (or when the clock steps back). */
  #sweep(nowMs: number, windowMs: number): void {
    if (nowMs >= this.#lastSweepMs && nowMs - this.#lastSweepMs < windowMs) return;
    this.#lastSweepMs = nowMs;
    for (const [key, log] of this.#logs) {
      const newest = log.times[log.times.length - 1];
      const isWindowEmpty = newest === undefined || log.head >= log.times.length || newest <= nowMs - log.windowMs;
      if (isWindowEmpty && log.pausedUntilMs <= nowMs) this.#logs.delete(key);
    }
  }
}

/** Amortized O(1) removal from the front: copy down only when the dropped prefix outweighs the live part. */
const compact = (log: SendLog): void => {
  if (log.head >= COMPACT_MIN_DROPPED && log.head * 2 >= log.times.length) {
    log.times = log.times.slice(log.head);
    log.head = 0;
  }
};
