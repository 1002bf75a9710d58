import "server-only";

import { type BudgetStore, type LearnedBudget, MemoryBudgetStore } from "./budget-store";
import { type Clock, systemClock } from "./clock";

/**
 * The per-key request budget of the upstream client.
 *
 * The upstream allows each key `budget` requests per window and answers 429 with `Retry-After` beyond it; its window
 * alignment is unknown. A sliding-window log (every send time kept for one window) guarantees at most `budget` sends in
 * ANY window of that length, whatever the server's alignment; a fixed client window would let 2× budget through across
 * the server's boundary. One pump per key hands each free slot to the head of the key's queue, interactive before bulk,
 * and bulk work a person waits on before background work (`headOf`).
 */

export type Priority = "interactive" | "bulk";

const DEFAULT_BUDGET = 60;
/**
 * The share of a key's budget window that background work (the stations page's price checks, the mirror's sync) always
 * leaves to the user's other pages, and its floor. One rule for every such caller: `reserveOf`.
 */
const BUDGET_RESERVE_SHARE = 0.25;
const BUDGET_RESERVE_MIN = 5;

/** Requests of a window that background work never takes: `max(5, ⌈budget / 4⌉)` (15 of 60, 30 of 120). */
export function reserveOf(budget: number): number {
  return Math.max(BUDGET_RESERVE_MIN, Math.ceil(budget * BUDGET_RESERVE_SHARE));
}
const DEFAULT_WINDOW_MS = 60_000;
const DEFAULT_SAFETY_MARGIN_MS = 250;

/** A store sleep shorter than this would be a busy loop in disguise (a remote store whose clock disagrees). */
const MIN_SLEEP_MS = 1;
/**
 * Tries to store a lowered budget while other instances keep changing it (each retry follows a change that was itself
 * a lowering, so a few suffice); then the others' lower value stands, which is what we wanted.
 */
const LEARN_ATTEMPTS = 5;

export interface RequestBudgetOptions {
  /** Requests per window per key; default 60 (the spec's default; its alternative description says 120). */
  budget?: number;
  /** Default 60 000. */
  windowMs?: number;
  clock?: Clock;
  store?: BudgetStore;
  /**
   * Extra spacing to absorb clock skew and latency jitter between us and the server, default 250: the store is asked
   * for a window of `windowMs + safetyMarginMs`, so any `budget + 1` sends are at least that far apart, and a pause
   * ends that much later than asked.
   */
  safetyMarginMs?: number;
}

interface Waiter {
  readonly priority: Priority;
  /** Granted only while the window keeps `reserveOf(budget)` slots free (background work). */
  readonly keepsReserve: boolean;
  readonly resolve: () => void;
  readonly reject: (reason: unknown) => void;
  /** Removes the abort listener once the waiter is served. */
  detach: () => void;
}

interface KeyQueue {
  /** Sets keep insertion order (FIFO) and delete in O(1), so an aborted waiter leaves at once. */
  readonly interactive: Set<Waiter>;
  readonly bulk: Set<Waiter>;
  isPumping: boolean;
  /** Aborting this wakes the pump from its sleep (used when the queue empties, so no timer outlives the waiters). */
  wake: AbortController | undefined;
}

const firstOf = (waiters: Set<Waiter>): Waiter | undefined => {
  const next = waiters.values().next();
  return next.done ? undefined : next.value;
};

/**
 * Who is served next: interactive first; then bulk work a person waits on (a catalog walk, an export: no reserve kept)
 * before background work (the mirror's sync, price checks: `keepReserve`), FIFO within each. Background work refused for
 * the reserve must not hold a walk that may use the reserve behind it (a new key's first minute: the history download
 * took the window's background share and the map's catalog waited a minute behind it).
 */
const headOf = (queue: KeyQueue): Waiter | undefined =>
  firstOf(queue.interactive) ?? firstPersonWaitingFor(queue.bulk) ?? firstOf(queue.bulk);

const firstPersonWaitingFor = (waiters: Set<Waiter>): Waiter | undefined => {
  for (const waiter of waiters) if (!waiter.keepsReserve) return waiter;
  return undefined;
};

const positiveInteger = (name: string, value: number): number => {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  return value;
};

export class RequestBudget {
  readonly #budget: number;
  readonly #windowMs: number;
  readonly #marginMs: number;
  /** The window the store enforces: the upstream's plus the safety margin. */
  readonly #storeWindowMs: number;
  readonly #clock: Clock;
  readonly #store: BudgetStore;
  readonly #queues = new Map<string, KeyQueue>();
  constructor(options: RequestBudgetOptions = {}) {
    this.#budget = positiveInteger("budget", options.budget ?? DEFAULT_BUDGET);
    this.#windowMs = positiveInteger("windowMs", options.windowMs ?? DEFAULT_WINDOW_MS);
    const margin = options.safetyMarginMs ?? DEFAULT_SAFETY_MARGIN_MS;
    if (!Number.isFinite(margin) || margin < 0)
      throw new RangeError(`safetyMarginMs must be >= 0, got ${String(margin)}`);
    this.#marginMs = margin;
    this.#storeWindowMs = this.#windowMs + margin;
    this.#clock = options.clock ?? systemClock;
    this.#store = options.store ?? new MemoryBudgetStore();
  }

  /**
   * Waits until this key may send one request and records the send. Interactive waiters are served before bulk ones
   * of the same key, bulk ones without `keepReserve` before those with it; FIFO within each. Rejects with the signal's reason if it aborts while waiting; the waiter
   * is then gone and takes no budget. With `keepReserve`, the send is granted only while the window holds fewer than
   * `budget − reserveOf(budget)` sends, so this waiter never takes the last quarter of a window (background work).
   */
  acquire(key: string, priority: Priority, signal?: AbortSignal, keepReserve = false): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<void>((resolve, reject) => {
      let queue = this.#queues.get(key);
      if (!queue) {
        queue = { interactive: new Set(), bulk: new Set(), isPumping: false, wake: undefined };
        this.#queues.set(key, queue);
      }
      const waiters = queue[priority];
      const waiter: Waiter = { priority, keepsReserve: keepReserve, resolve, reject, detach: () => undefined };
      if (signal) {
        const onAbort = (): void => {
          waiters.delete(waiter);
          reject(signal.reason as Error);
          if (queue.interactive.size === 0 && queue.bulk.size === 0) queue.wake?.abort();
        };
        signal.addEventListener("abort", onAbort, { once: true });
        waiter.detach = () => {
          signal.removeEventListener("abort", onAbort);
        };
      }
      waiters.add(waiter);
      // A pump asleep because a reserve-keeping head was refused may have room for this one now (the reserve).
      if (!keepReserve) queue.wake?.abort();
      if (!queue.isPumping) {
        queue.isPumping = true;
        void this.#pump(key, queue);
      }
    });
  }

  /** No sends for this key for `ms` (plus the safety margin), e.g. after a 429; extends, never shortens, a pause. */
  async pause(key: string, ms: number): Promise<void> {
    if (!(ms >= 0)) throw new RangeError(`pause must be >= 0 ms, got ${String(ms)}`);
    await this.#store.pauseUntil(key, this.#clock.now() + ms + this.#marginMs);
  }

  /** The upstream's budget for this key is apparently `observed`: lower to it (never below 1, never raised). */
  async learnBudget(key: string, observed: number): Promise<void> {
    if (Number.isNaN(observed)) return;
    const lowered = Math.max(1, Math.floor(observed));
    await this.#learn(key, (current) => (lowered < current ? lowered : undefined));
  }

  /**
   * The budget this key is held to now. A lowered budget recovers: every whole window without a 429 wins back half
   * of what is still missing (rounded up), so it is back at the configured budget after about log2(budget) quiet
   * windows. A 429 is evidence about one moment (the provider may have been busy, or another client spent the key);
   * a budget lowered for the life of the process would slow every user of the key for good. The lowered budget lives
   * in the store, beside the log: with Redis, a 429 one instance met holds every instance to it.
   */
  async budgetOf(key: string): Promise<number> {
    return this.#recovered(await this.#store.learned(key, this.#clock.now()));
  }

  #recovered(learned: LearnedBudget | undefined): number {
    if (learned === undefined) return this.#budget;
    const quietWindows = Math.floor((this.#clock.now() - learned.sinceMs) / this.#windowMs);
    let budget = learned.budget;
    for (let i = 0; i < quietWindows && budget < this.#budget; i++) budget += Math.ceil((this.#budget - budget) / 2);
    return Math.min(budget, this.#budget);
  }

  /** How long the upstream still asked this key to wait (a 429's `Retry-After`, without our margin); 0 when not paused. */
  async pausedFor(key: string): Promise<number> {
    const until = await this.#store.pausedUntil(key);
    return Math.max(0, until - this.#marginMs - this.#clock.now());
  }

  /** Sends recorded for this key in the current window (including the safety margin). */
  sentInWindow(key: string): Promise<number> {
    return this.#store.count(key, this.#clock.now(), this.#storeWindowMs);
  }

  /**
   * A 429 arrived for a request that went through `acquire`: pause the key for `retryAfterMs` (from
   * `parseRetryAfterMs`; one window when the header was missing or unreadable), and, since that request was recorded
   * but refused, learn that the upstream let at most `sentInWindow - 1` through. With nothing else of ours in the
   * window there is no evidence about the budget (someone else spent it, or the request outlived the window), so
   * nothing is learned. Either way a budget already lowered starts its recovery again from here.
   */
  async noteRateLimited(key: string, retryAfterMs: number | undefined): Promise<void> {
    const sent = await this.sentInWindow(key);
    await this.#learn(key, (current) => {
      const budget = sent >= 2 ? Math.min(current, Math.max(1, sent - 1)) : current;
      return budget < this.#budget ? budget : undefined;
    });
    await this.pause(key, retryAfterMs ?? this.#windowMs);
  }

  /**
   * Holds the key to `lowerTo(current budget)` from now (undefined: leave it), kept in the store until it would have
   * recovered in full (then it is moot). The store replaces only the value this decision was made on: when another
   * instance changed it meanwhile (a lower budget from its own 429), we decide again on that, so an older, higher
   * view never raises a budget another instance has just lowered.
   */
  async #learn(key: string, lowerTo: (current: number) => number | undefined): Promise<void> {
    const ttlMs = (Math.ceil(Math.log2(this.#budget)) + 2) * this.#windowMs;
    for (let attempt = 0; attempt < LEARN_ATTEMPTS; attempt++) {
      const stored = await this.#store.learned(key, this.#clock.now());
      const budget = lowerTo(this.#recovered(stored));
      if (budget === undefined) return;
      if (await this.#store.setLearned(key, { budget, sinceMs: this.#clock.now() }, ttlMs, stored)) return;
    }
  }

  /** For tests and metrics: waiting counts per priority. */
  pending(key: string): { interactive: number; bulk: number } {
    const queue = this.#queues.get(key);
    return { interactive: queue?.interactive.size ?? 0, bulk: queue?.bulk.size ?? 0 };
  }

  /**
   * Serves the key's queue until it is empty: asks the store for a slot, gives it to the head (looked up after the
   * store answers, so an interactive waiter that arrived meanwhile goes first), or sleeps until the store's retry
   * time. A new bulk waiter needs no wake-up: slots free up only at the time the pump already sleeps until; a new
   * interactive one wakes it, since the head it sleeps for may have been refused only for keeping the reserve.
   */
  async #pump(key: string, queue: KeyQueue): Promise<void> {
    try {
      for (let head = headOf(queue); head !== undefined; head = headOf(queue)) {
        const budget = await this.budgetOf(key);
        const ceiling = head.keepsReserve ? Math.max(0, budget - reserveOf(budget)) : budget;
        const attempt =
          ceiling > 0
            ? await this.#store.tryAcquire(
                key,
                this.#clock.now(),
                ceiling,
                this.#storeWindowMs,
                head.priority === "interactive" && !head.keepsReserve ? "interactive" : "bulk",
              )
            : ({ granted: false, retryAtMs: this.#clock.now() + this.#windowMs } as const);
        if (attempt.granted) {
          // Every waiter may have aborted while the store answered; the slot then goes unused, which is only cautious.
          const waiter = headOf(queue);
          if (waiter) {
            queue[waiter.priority].delete(waiter);
            waiter.detach();
            waiter.resolve();
          }
          continue;
        }
        const wake = new AbortController();
        queue.wake = wake;
        try {
          await this.#clock.sleep(Math.max(MIN_SLEEP_MS, attempt.retryAtMs - this.#clock.now()), wake.signal);
        } catch (error) {
          if (!wake.signal.aborted) throw error;
        } finally {
          queue.wake = undefined;
        }
      }
    } catch (error) {
      // The store failed (e.g. Redis unreachable): nobody can be granted safely, so everyone waiting hears why.
      for (const waiter of [...queue.interactive, ...queue.bulk]) {
        waiter.detach();
        waiter.reject(error);
      }
      queue.interactive.clear();
      queue.bulk.clear();
    } finally {
      queue.isPumping = false;
      if (this.#queues.get(key) === queue) this.#queues.delete(key);
    }
  }
}
