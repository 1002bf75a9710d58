import { describe, expect, it } from "vitest";

import { type Priority, RequestBudget, reserveOf } from "./budget";
import { MemoryBudgetStore } from "./budget-store";
import { FakeClock } from "./fixtures/fake-clock";

// The order in which a key's waiters are served when background work keeps the reserve (the last quarter of a window
// left to people): interactive first, then bulk work a person waits on, then background work. Fake time.

const T0 = Date.UTC(2025, 0, 6, 8, 0, 0);
const WINDOW = 60_000;
const MARGIN = 250;
const KEY = "key-hash-a";

/** A budget of 8 a window (reserve 5) in fake time, and a way to queue labelled waiters and see when each was granted. */
function budgetOf8() {
  const clock = new FakeClock(T0);
  const requestBudget = new RequestBudget({
    budget: 8,
    windowMs: WINDOW,
    clock,
    store: new MemoryBudgetStore(),
    safetyMarginMs: MARGIN,
  });
  const grants: { label: string; at: number }[] = [];
  const take = (label: string, priority: Priority, keepReserve: boolean) =>
    requestBudget.acquire(KEY, priority, undefined, keepReserve).then(() => {
      grants.push({ label, at: clock.now() });
    });
  return { clock, grants, take };
}

describe("RequestBudget and the reserve", () => {
  it("grants a reserve-keeping waiter only below budget − reserve, and an interactive one that arrives meanwhile goes at once", async () => {
    const { clock, grants, take } = budgetOf8();
    expect(reserveOf(8)).toBe(5);
    const all = ["s0", "s1", "s2", "s3", "s4"].map((label) => take(label, "bulk", true));
    await clock.advance(1_000);
    // 8 − 5 = 3 sends of the window for background work; the rest waits for the window to move on.
    expect(grants.map((g) => g.label)).toEqual(["s0", "s1", "s2"]);
    all.push(take("i0", "interactive", false));
    await clock.advance(0);
    expect(grants.map((g) => g.label)).toEqual(["s0", "s1", "s2", "i0"]);
    await clock.runUntilSettled(Promise.all(all));
    const background = grants.filter((g) => g.label.startsWith("s"));
    // When the first three leave, the window holds i0 only: both remaining background sends fit under the ceiling of 3.
    expect(background.map((g) => g.at)).toEqual([T0, T0, T0, T0 + WINDOW + MARGIN, T0 + WINDOW + MARGIN]);
  });

  it("serves bulk work a person waits on (no reserve kept) from the reserve while background work waits for the window", async () => {
    // A new key's first minute: the mirror's history download (background, keeps the reserve) fills its share of the
    // window, and the stations page's catalog walk (bulk, a person waiting) must not queue behind it for a minute.
    const { clock, grants, take } = budgetOf8();
    const all = ["s0", "s1", "s2", "s3", "s4"].map((label) => take(label, "bulk", true));
    await clock.advance(1_000);
    expect(grants.map((g) => g.label)).toEqual(["s0", "s1", "s2"]);
    // The walk's pages arrive after the background waiters: they go at once, from the reserve, in their own order.
    all.push(take("w0", "bulk", false), take("w1", "bulk", false));
    await clock.advance(0);
    expect(grants.map((g) => g.label)).toEqual(["s0", "s1", "s2", "w0", "w1"]);
    expect(grants.filter((g) => g.label.startsWith("w")).map((g) => g.at)).toEqual([T0 + 1_000, T0 + 1_000]);
    await clock.runUntilSettled(Promise.all(all));
    // The background waiters still go in their order once the window allows them.
    expect(grants.map((g) => g.label)).toEqual(["s0", "s1", "s2", "w0", "w1", "s3", "s4"]);
  });
});
