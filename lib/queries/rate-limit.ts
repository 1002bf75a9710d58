/**
 * "The upstream asked us to wait": one shared deadline for the whole page, so a rate-limited overview shows one banner
 * with one countdown and retries once when it ends, instead of every card counting and retrying on its own.
 * Fed by the query cache (any query failing with 429) and read by the dashboard's banner.
 */
import { MAX_RETRY_AFTER_MS } from "@/lib/model/retry-after";

/** When a 429 carries no Retry-After, wait this long (one upstream budget window is 60 s; the BFF usually says). */
export const DEFAULT_RATE_LIMIT_WAIT_SECONDS = 30;
/** A Retry-After beyond this is not believed (a broken header must not freeze the page for hours). */
export const MAX_RATE_LIMIT_WAIT_SECONDS = MAX_RETRY_AFTER_MS / 1000;

/** A wait in force: when it was asked for and when it ends (epoch ms). */
export interface RateLimitWait {
  readonly since: number;
  readonly until: number;
}

export class RateLimitState {
  #wait: RateLimitWait | null = null;
  readonly #listeners = new Set<() => void>();

  /** Epoch ms until which the upstream asked us to wait, or null when no wait is in force. */
  get until(): number | null {
    return this.#wait?.until ?? null;
  }

  /** A 429 arrived: the wait ends `seconds` from now, unless an earlier 429 already asked for longer. */
  note(retryAfterSeconds: number | null, now: number = Date.now()): void {
    const seconds = Math.min(
      MAX_RATE_LIMIT_WAIT_SECONDS,
      Math.max(1, retryAfterSeconds ?? DEFAULT_RATE_LIMIT_WAIT_SECONDS),
    );
    const until = now + seconds * 1000;
    if (this.#wait !== null && this.#wait.until >= until) return;
    this.#wait = { since: now, until };
    this.#emit();
  }

  /** The wait is over (the banner retried). */
  clear(): void {
    if (this.#wait === null) return;
    this.#wait = null;
    this.#emit();
  }

  /** Whole seconds left, rounded up; 0 when no wait is in force or it has passed. */
  secondsLeft(now: number = Date.now()): number {
    return this.#wait === null ? 0 : Math.max(0, Math.ceil((this.#wait.until - now) / 1000));
  }

  /** For useSyncExternalStore: a new object for each new wait, the same one while it lasts. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): RateLimitWait | null => this.#wait;

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}
