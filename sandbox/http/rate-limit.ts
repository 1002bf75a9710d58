import { ApiError } from "./errors";

/** The fixed window `nowMs` falls in (windows start at multiples of `windowSeconds` on the clock). */
function windowAt(nowMs: number, windowSeconds: number): { start: number; retryAfterSeconds: number } {
  const windowMs = windowSeconds * 1000;
  const start = Math.floor(nowMs / windowMs) * windowMs;
  return { start, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - nowMs) / 1000)) };
}

/**
 * Fixed-window request budget per key: windows start at multiples of `windowSeconds` on the clock, so every
 * client sees the same reset times. Over budget: 429 `rate_limited` with `Retry-After` = whole seconds until
 * the window resets (at least 1).
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly budget: number,
    private readonly windowSeconds: number,
    private readonly now: () => number,
  ) {}

  /** Throws 429 when the key's budget for this window is spent; counts nothing. */
  check(keyId: string): void {
    const { start, retryAfterSeconds } = windowAt(this.now(), this.windowSeconds);
    const window = this.windows.get(keyId);
    if (window?.start === start && window.count >= this.budget) throw this.overBudget(retryAfterSeconds);
  }

  private overBudget(retryAfterSeconds: number): ApiError {
    return new ApiError(
      429,
      "rate_limited",
      `Request budget of ${String(this.budget)} per ${String(this.windowSeconds)} s exceeded; retry in ${String(retryAfterSeconds)} s.`,
      {
        "Retry-After": String(retryAfterSeconds),
      },
    );
  }

  /** Counts one request for the key, or throws 429 when the window's budget is spent. */
  take(keyId: string): void {
    const { start, retryAfterSeconds } = windowAt(this.now(), this.windowSeconds);
    let window = this.windows.get(keyId);
    if (window?.start !== start) {
      window = { start, count: 0 };
      this.windows.set(keyId, window);
    }
    if (window.count >= this.budget) throw this.overBudget(retryAfterSeconds);
    window.count++;
  }
}

/**
 * Failed key-pair checks (POST /auth, HTTP Basic) per client address, in the same fixed windows as the request
 * budget. Once an address has failed `budget` times in a window, every further key-pair check from it is
 * answered 429 `rate_limited` before any scrypt work, until the window ends: this bounds both guessing and the
 * CPU an address can spend on scrypt. Checks still running count too, so a burst of parallel guesses cannot
 * slip past the limit; a successful check releases its place. Failures are never charged to the key itself
 * (that would let anyone lock a real key out).
 */
export class FailedAuthLimiter {
  private readonly failures = new Map<string, { start: number; count: number }>();
  private readonly inFlight = new Map<string, number>();
  private sweptStart = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly budget: number,
    private readonly windowSeconds: number,
    private readonly now: () => number,
  ) {}

  /**
   * Call before a key-pair check from `address`. Throws 429 when the address is over; otherwise returns the
   * function that settles this check: `settle(true)` when the pair was right, `settle(false)` when it failed.
   */
  begin(address: string): (succeeded: boolean) => void {
    const { start, retryAfterSeconds } = windowAt(this.now(), this.windowSeconds);
    const failed = this.failuresIn(address, start);
    const running = this.inFlight.get(address) ?? 0;
    if (failed >= this.budget) {
      throw new ApiError(
        429,
        "rate_limited",
        `Too many failed credential checks from your address (${String(this.budget)} per ${String(this.windowSeconds)} s); retry in ${String(retryAfterSeconds)} s.`,
        { "Retry-After": String(retryAfterSeconds) },
      );
    }
    if (failed + running >= this.budget) {
      // Under the limit only if the checks still running succeed: they finish within a second.
      throw new ApiError(429, "rate_limited", "Too many credential checks from your address at once; retry in 1 s.", {
        "Retry-After": "1",
      });
    }
    this.inFlight.set(address, running + 1);
    let settled = false;
    return (succeeded) => {
      if (settled) return;
      settled = true;
      const left = (this.inFlight.get(address) ?? 1) - 1;
      if (left > 0) this.inFlight.set(address, left);
      else this.inFlight.delete(address);
      if (!succeeded) this.recordFailure(address);
    };
  }

  private failuresIn(address: string, start: number): number {
    const window = this.failures.get(address);
    return window?.start === start ? window.count : 0;
  }

  private recordFailure(address: string): void {
    const { start } = windowAt(this.now(), this.windowSeconds);
    const window = this.failures.get(address);
    if (window?.start === start) window.count++;
    else this.failures.set(address, { start, count: 1 });
    this.sweep(start);
  }

  /** Forgets past windows once per window, so the map holds only the addresses that failed lately. */
  private sweep(currentStart: number): void {
    if (this.sweptStart === currentStart) return;
    this.sweptStart = currentStart;
    for (const [address, window] of this.failures) if (window.start < currentStart) this.failures.delete(address);
  }
}
