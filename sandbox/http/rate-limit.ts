import { ApiError } from "./errors";

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

  /** Counts one request for the key, or throws 429 when the window's budget is spent. */
  take(keyId: string): void {
    const windowMs = this.windowSeconds * 1000;
    const nowMs = this.now();
    const start = Math.floor(nowMs / windowMs) * windowMs;
    let window = this.windows.get(keyId);
    if (window?.start !== start) {
      window = { start, count: 0 };
      this.windows.set(keyId, window);
    }
    if (window.count >= this.budget) {
      const retryAfter = Math.max(1, Math.ceil((start + windowMs - nowMs) / 1000));
      throw new ApiError(429, "rate_limited", `Request budget of ${String(this.budget)} per ${String(this.windowSeconds)} s exceeded; retry in ${String(retryAfter)} s.`, {
        "Retry-After": String(retryAfter),
      });
    }
    window.count++;
  }
}
