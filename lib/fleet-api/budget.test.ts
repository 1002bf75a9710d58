import { describe, expect, it } from "vitest";

import { parseRetryAfterMs } from "@/lib/model/retry-after";

import { type Priority, RequestBudget } from "./budget";
import { MemoryBudgetStore } from "./budget-store";
import { FakeClock } from "./fixtures/fake-clock";

const T0 = Date.UTC(2025, 0, 6, 8, 0, 0);
const WINDOW = 60_000;
const MARGIN = 250;
const KEY = "key-hash-a";

/** Starts an acquire and records when (fake time) and in which order it was granted. */
const tracker = (clock: FakeClock) => {
  const grants: { label: string; at: number }[] = [];
  const start = (budget: RequestBudget, label: string, priority: Priority, signal?: AbortSignal, key = KEY) => {
    const p = budget.acquire(key, priority, signal).then(() => {
      grants.push({ label, at: clock.now() });
    });
    // Keep an expected rejection from being reported as unhandled; tests await `p` when they care.
    p.catch(() => undefined);
    return p;
  };
  return { grants, start, labels: () => grants.map((g) => g.label) };
};

const setup = (budget = 3, options: { margin?: number } = {}) => {
  const clock = new FakeClock(T0);
  const store = new MemoryBudgetStore();
  const requestBudget = new RequestBudget({
    budget,
    windowMs: WINDOW,
    clock,
    store,
    safetyMarginMs: options.margin ?? MARGIN,
  });
  return { clock, store, requestBudget, ...tracker(clock) };
};

describe("RequestBudget", () => {
  it("grants the budget at once, then the next request waits until the oldest send leaves the window plus the margin", async () => {
    const { clock, requestBudget, start, grants } = setup(3);
    for (const label of ["a", "b", "c"]) void start(requestBudget, label, "bulk");
    await clock.advance(0);
    expect(grants).toEqual([
      { label: "a", at: T0 },
      { label: "b", at: T0 },
      { label: "c", at: T0 },
    ]);

    await clock.advance(10_000);
    void start(requestBudget, "d", "bulk");
    await clock.advanceTo(T0 + WINDOW + MARGIN - 1);
    expect(grants).toHaveLength(3);
    expect(requestBudget.pending(KEY)).toEqual({ interactive: 0, bulk: 1 });
    await clock.advanceTo(T0 + WINDOW + MARGIN);
    expect(grants[3]).toEqual({ label: "d", at: T0 + WINDOW + MARGIN });
    expect(requestBudget.pending(KEY)).toEqual({ interactive: 0, bulk: 0 });
    expect(clock.pendingSleeps).toBe(0);
  });

  it("applies the margin to requests that arrive after the window too, not only to queued ones", async () => {
    const { clock, requestBudget, start, grants } = setup(1);
    void start(requestBudget, "a", "bulk");
    await clock.advanceTo(T0 + WINDOW);
    void start(requestBudget, "b", "bulk");
    await clock.advanceTo(T0 + WINDOW + MARGIN);
    expect(grants.map((g) => g.at)).toEqual([T0, T0 + WINDOW + MARGIN]);
  });

  it("never grants more than the budget in any window", async () => {
    const { clock, requestBudget, start, grants } = setup(4);
    const all: Promise<void>[] = [];
    for (let i = 0; i < 30; i++) {
      all.push(start(requestBudget, `r${i}`, i % 3 === 0 ? "interactive" : "bulk"));
      await clock.advance(7_000);
    }
    await clock.runUntilSettled(Promise.all(all));
    const times = grants.map((g) => g.at).sort((x, y) => x - y);
    expect(times).toHaveLength(30);
    for (let i = 0; i + 4 < times.length; i++)
      expect((times[i + 4] ?? 0) - (times[i] ?? 0)).toBeGreaterThanOrEqual(WINDOW);
  });

  it("serves an interactive request that arrives later before bulk ones already waiting", async () => {
    const { clock, requestBudget, start, labels } = setup(2);
    const all = ["b0", "b1", "b2", "b3", "b4"].map((label) => start(requestBudget, label, "bulk"));
    await clock.advance(5_000);
    expect(labels()).toEqual(["b0", "b1"]);
    all.push(start(requestBudget, "i0", "interactive"));
    await clock.runUntilSettled(Promise.all(all));
    expect(labels()).toEqual(["b0", "b1", "i0", "b2", "b3", "b4"]);
  });

  it("is FIFO within a priority", async () => {
    const { clock, requestBudget, start, labels } = setup(1);
    const all = [start(requestBudget, "b0", "bulk")];
    await clock.advance(0);
    all.push(start(requestBudget, "b1", "bulk"), start(requestBudget, "i0", "interactive"));
    await clock.advance(1_000);
    all.push(
      start(requestBudget, "b2", "bulk"),
      start(requestBudget, "i1", "interactive"),
      start(requestBudget, "i2", "interactive"),
    );
    await clock.runUntilSettled(Promise.all(all));
    expect(labels()).toEqual(["b0", "i0", "i1", "i2", "b1", "b2"]);
  });

  it("rejects with the signal's reason on abort, and the aborted waiter takes no budget", async () => {
    const { clock, requestBudget, start, grants } = setup(1);
    void start(requestBudget, "a", "bulk");
    await clock.advance(1_000);
    const controller = new AbortController();
    const aborted = start(requestBudget, "b", "interactive", controller.signal);
    await clock.advance(1_000);
    const reason = new Error("the page was closed");
    controller.abort(reason);
    await expect(aborted).rejects.toBe(reason);
    expect(requestBudget.pending(KEY)).toEqual({ interactive: 0, bulk: 0 });
    expect(clock.pendingSleeps).toBe(0); // the pump stopped sleeping: nothing keeps a process alive

    // The slot "b" would have taken at T0 + 60.25 s is still there for "c", and the one after it too.
    const later = start(requestBudget, "c", "bulk");
    await clock.runUntilSettled(later);
    expect(grants.map((g) => [g.label, g.at])).toEqual([
      ["a", T0],
      ["c", T0 + WINDOW + MARGIN],
    ]);
    expect(await requestBudget.sentInWindow(KEY)).toBe(1);
  });

  it("rejects at once when the signal is already aborted", async () => {
    const { requestBudget } = setup(1);
    const reason = new Error("gone");
    await expect(requestBudget.acquire(KEY, "bulk", AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(requestBudget.pending(KEY)).toEqual({ interactive: 0, bulk: 0 });
  });

  it("a pause delays every waiter of that key until it ends (plus the margin); other keys are unaffected", async () => {
    const { clock, requestBudget, start, grants } = setup(5);
    await requestBudget.pause(KEY, 30_000);
    const all = [
      start(requestBudget, "a1", "interactive"),
      start(requestBudget, "a2", "bulk"),
      start(requestBudget, "other", "bulk", undefined, "key-hash-b"),
    ];
    await clock.advance(0);
    expect(grants).toEqual([{ label: "other", at: T0 }]);
    await requestBudget.pause(KEY, 5_000); // a shorter pause does not shorten the first
    await clock.advanceTo(T0 + 30_000 + MARGIN - 1);
    expect(grants).toHaveLength(1);
    await clock.runUntilSettled(Promise.all(all));
    expect(grants.slice(1)).toEqual([
      { label: "a1", at: T0 + 30_000 + MARGIN },
      { label: "a2", at: T0 + 30_000 + MARGIN },
    ]);
  });

  it("learnBudget lowers the key's budget, never below 1 and never up", async () => {
    const { clock, requestBudget, start, grants } = setup(5);
    await requestBudget.learnBudget(KEY, 2);
    expect(await requestBudget.budgetOf(KEY)).toBe(2);
    expect(await requestBudget.budgetOf("key-hash-b")).toBe(5);
    await requestBudget.learnBudget(KEY, 10);
    expect(await requestBudget.budgetOf(KEY)).toBe(2);

    for (const label of ["a", "b", "c"]) void start(requestBudget, label, "bulk");
    await clock.advance(0);
    expect(grants.map((g) => g.label)).toEqual(["a", "b"]);

    await requestBudget.learnBudget(KEY, 0);
    expect(await requestBudget.budgetOf(KEY)).toBe(1);
    await clock.runUntilIdle();
    expect(grants[2]).toEqual({ label: "c", at: T0 + WINDOW + MARGIN });
  });

  it("noteRateLimited pauses the key and learns that the upstream let one fewer than our sends through", async () => {
    const { clock, requestBudget, start, grants } = setup(5);
    for (const label of ["a", "b", "c"]) void start(requestBudget, label, "bulk");
    await clock.advance(1_000);
    await requestBudget.noteRateLimited(KEY, parseRetryAfterMs("20", clock.now()));
    expect(await requestBudget.budgetOf(KEY)).toBe(2);
    const next = start(requestBudget, "d", "interactive");
    await clock.runUntilSettled(next);
    // Paused until 1 s + 20 s (+ margin), then still 3 sends in the window against a budget of 2.
    expect(grants[3]).toEqual({ label: "d", at: T0 + WINDOW + MARGIN });
  });

  it("noteRateLimited learns nothing when ours was the only send in the window", async () => {
    const { clock, requestBudget, start } = setup(5);
    void start(requestBudget, "a", "bulk");
    await clock.advance(0);
    await requestBudget.noteRateLimited(KEY, undefined);
    expect(await requestBudget.budgetOf(KEY)).toBe(5);
  });

  it("a lowered budget recovers towards the configured one, half the gap per window without a 429", async () => {
    const { clock, requestBudget } = setup(60);
    await requestBudget.learnBudget(KEY, 4);
    expect(await requestBudget.budgetOf(KEY)).toBe(4);
    await clock.advance(WINDOW - 1);
    expect(await requestBudget.budgetOf(KEY)).toBe(4); // not one whole quiet window yet
    await clock.advance(1);
    expect(await requestBudget.budgetOf(KEY)).toBe(32); // 4 + ⌈56 / 2⌉
    // A 429 now (ours the only send: nothing new learned) freezes the budget where it is and restarts the recovery.
    await requestBudget.noteRateLimited(KEY, 1_000);
    await clock.advance(WINDOW - 1);
    expect(await requestBudget.budgetOf(KEY)).toBe(32);
    await clock.advance(1);
    expect(await requestBudget.budgetOf(KEY)).toBe(46);
    await clock.advance(10 * WINDOW);
    expect(await requestBudget.budgetOf(KEY)).toBe(60); // never above the configured budget, and never stuck below it
  });

  it("walks 125 requests at 60 per 60 s in about 120 s of fake time", async () => {
    const clock = new FakeClock(T0);
    const requestBudget = new RequestBudget({ clock });
    const walk = async (): Promise<void> => {
      for (let page = 1; page <= 125; page++) await requestBudget.acquire(KEY, "bulk");
    };
    await clock.runUntilSettled(walk());
    expect(clock.now() - T0).toBe(2 * (WINDOW + MARGIN));
    expect(clock.now() - T0).toBeLessThanOrEqual(125_000);
    expect(clock.pendingSleeps).toBe(0);
  });

  it("rejects every waiter when the store fails", async () => {
    const clock = new FakeClock(T0);
    const failure = new Error("store unreachable");
    const requestBudget = new RequestBudget({
      clock,
      store: {
        tryAcquire: () => Promise.reject(failure),
        pauseUntil: () => Promise.resolve(),
        count: () => Promise.resolve(0),
        pausedUntil: () => Promise.resolve(0),
        learned: () => Promise.resolve(undefined),
        setLearned: () => Promise.resolve(true),
      },
    });
    const results = await Promise.allSettled([
      requestBudget.acquire(KEY, "bulk"),
      requestBudget.acquire(KEY, "interactive"),
    ]);
    expect(results).toEqual([
      { status: "rejected", reason: failure },
      { status: "rejected", reason: failure },
    ]);
    expect(requestBudget.pending(KEY)).toEqual({ interactive: 0, bulk: 0 });
  });

  it("rejects invalid options", () => {
    expect(() => new RequestBudget({ budget: 0 })).toThrow(RangeError);
    expect(() => new RequestBudget({ windowMs: 1.5 })).toThrow(RangeError);
    expect(() => new RequestBudget({ safetyMarginMs: -1 })).toThrow(RangeError);
  });
});
