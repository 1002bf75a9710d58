import { describe, expect, it } from "vitest";

import { MemoryBudgetStore } from "./budget-store";

const T0 = Date.UTC(2025, 0, 6, 8, 0, 0);
const KEY = "key-hash-a";

describe("MemoryBudgetStore", () => {
  it("answers with the time enough entries leave the window, also after the budget was lowered", async () => {
    const store = new MemoryBudgetStore();
    for (const t of [0, 10, 20, 30]) expect(await store.tryAcquire(KEY, T0 + t, 4, 1_000)).toEqual({ granted: true });
    expect(await store.tryAcquire(KEY, T0 + 40, 4, 1_000)).toEqual({ granted: false, retryAtMs: T0 + 1_000 });
    // Budget 2 with 4 in the window: three must leave to get below 2, the third at T0 + 20 + window.
    expect(await store.tryAcquire(KEY, T0 + 40, 2, 1_000)).toEqual({ granted: false, retryAtMs: T0 + 1_020 });
    expect(await store.tryAcquire(KEY, T0 + 1_000, 4, 1_000)).toEqual({ granted: true });
    expect(await store.count(KEY, T0 + 1_000, 1_000)).toBe(4);
  });

  it("keeps a pause that is extended, never shortened, and reports it as the retry time", async () => {
    const store = new MemoryBudgetStore();
    await store.pauseUntil(KEY, T0 + 5_000);
    await store.pauseUntil(KEY, T0 + 2_000);
    expect(await store.tryAcquire(KEY, T0, 10, 1_000)).toEqual({ granted: false, retryAtMs: T0 + 5_000 });
    await store.pauseUntil(KEY, T0 + 7_000);
    expect(await store.tryAcquire(KEY, T0 + 5_000, 10, 1_000)).toEqual({ granted: false, retryAtMs: T0 + 7_000 });
    expect(await store.tryAcquire(KEY, T0 + 7_000, 10, 1_000)).toEqual({ granted: true });
  });

  it("keeps the log sorted when the clock steps back", async () => {
    const store = new MemoryBudgetStore();
    await store.tryAcquire(KEY, T0 + 500, 3, 1_000);
    await store.tryAcquire(KEY, T0 + 100, 3, 1_000);
    await store.tryAcquire(KEY, T0 + 300, 3, 1_000);
    expect(await store.tryAcquire(KEY, T0 + 600, 3, 1_000)).toEqual({ granted: false, retryAtMs: T0 + 1_100 });
  });

  it("forgets idle keys", async () => {
    const store = new MemoryBudgetStore();
    for (let i = 0; i < 50; i++) await store.tryAcquire(`key-${i}`, T0, 5, 1_000);
    await store.pauseUntil("paused", T0 + 10_000);
    expect(store.size).toBe(51);
    await store.tryAcquire(KEY, T0 + 1_000, 5, 1_000);
    expect(store.size).toBe(2); // KEY and the still-paused key
    await store.tryAcquire(KEY, T0 + 20_000, 5, 1_000);
    expect(store.size).toBe(1);
  });

  it("stays small over a long run of one key", async () => {
    const store = new MemoryBudgetStore();
    for (let t = 0; t < 100_000; t += 10) await store.tryAcquire(KEY, T0 + t, 200, 1_000);
    expect(await store.count(KEY, T0 + 100_000, 1_000)).toBe(99);
  });
});
