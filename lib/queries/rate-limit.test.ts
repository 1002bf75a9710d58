import { describe, expect, it, vi } from "vitest";

import { BffRequestError } from "./fetch-json";
import { createQueryClient } from "./query-client";
import { DEFAULT_RATE_LIMIT_WAIT_SECONDS, MAX_RATE_LIMIT_WAIT_SECONDS, RateLimitState } from "./rate-limit";

const T0 = Date.parse("2026-11-21T10:00:00Z");

describe("RateLimitState", () => {
  it("counts the seconds left from the Retry-After, rounded up, down to 0", () => {
    const state = new RateLimitState();
    expect(state.secondsLeft(T0)).toBe(0);
    state.note(35, T0);
    expect(state.until).toBe(T0 + 35_000);
    expect(state.secondsLeft(T0)).toBe(35);
    expect(state.secondsLeft(T0 + 100)).toBe(35);
    expect(state.secondsLeft(T0 + 34_001)).toBe(1);
    expect(state.secondsLeft(T0 + 40_000)).toBe(0);
  });

  it("keeps the longest wait asked for and tells subscribers only when it changes", () => {
    const state = new RateLimitState();
    const listener = vi.fn();
    const unsubscribe = state.subscribe(listener);
    state.note(60, T0);
    state.note(10, T0 + 1000); // ends earlier than the wait in force: ignored
    expect(state.until).toBe(T0 + 60_000);
    expect(listener).toHaveBeenCalledTimes(1);
    state.note(90, T0);
    expect(state.until).toBe(T0 + 90_000);
    expect(listener).toHaveBeenCalledTimes(2);
    state.clear();
    state.clear();
    expect(state.until).toBeNull();
    expect(listener).toHaveBeenCalledTimes(3);
    unsubscribe();
    state.note(5, T0);
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it("uses a default when the 429 said nothing, and does not believe absurd waits", () => {
    const state = new RateLimitState();
    state.note(null, T0);
    expect(state.secondsLeft(T0)).toBe(DEFAULT_RATE_LIMIT_WAIT_SECONDS);
    state.clear();
    state.note(86_400, T0);
    expect(state.secondsLeft(T0)).toBe(MAX_RATE_LIMIT_WAIT_SECONDS);
    state.clear();
    state.note(0, T0);
    expect(state.secondsLeft(T0)).toBe(1);
  });
});

describe("the query client and the rate limit", () => {
  it("a query failing with 429 starts the shared wait; other failures do not", async () => {
    const state = new RateLimitState();
    const client = createQueryClient(state);
    await client
      .query({
        queryKey: ["a"],
        queryFn: () => Promise.reject(new BffRequestError(503, "upstream_unavailable", "down")),
        retry: false,
      })
      .catch(() => undefined);
    expect(state.until).toBeNull();
    await client
      .query({
        queryKey: ["b"],
        queryFn: () => Promise.reject(new BffRequestError(429, "rate_limited", "wait", 42)),
        retry: false,
      })
      .catch(() => undefined);
    expect(state.secondsLeft()).toBeGreaterThanOrEqual(41);
    expect(state.secondsLeft()).toBeLessThanOrEqual(42);
  });
});
