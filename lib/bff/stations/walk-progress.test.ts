import { describe, expect, it } from "vitest";

import { RunningLimit } from "../platform/running-limit";
import { catalogProgress, isCatalogLoading, trackCatalogWalk } from "./walk-progress";

const use = (over: { sent?: number; bulk?: number; pausedForMs?: number } = {}) => ({
  use: {
    budget: 10,
    sent: over.sent ?? 10,
    pausedForMs: over.pausedForMs ?? 0,
    waiting: { interactive: 0, bulk: over.bulk ?? 1 },
  },
  windowMs: 6_000,
});

describe("catalogProgress: waiting for the key's budget", () => {
  it("says the walk waits, and why, only while it loads with the key's window full and bulk requests queued", () => {
    const walk = trackCatalogWalk("key-a");
    expect(isCatalogLoading("key-a")).toBe(true);
    expect(catalogProgress("key-a", { ...use(), exportsRunning: 1 }).budgetWait).toEqual({
      reason: "export",
      budget: 10,
      windowSeconds: 6,
    });
    expect(catalogProgress("key-a", { ...use(), exportsRunning: 0 }).budgetWait).toEqual({
      reason: "other",
      budget: 10,
      windowSeconds: 6,
    });
    // A 429 pause holds the queue too.
    expect(
      catalogProgress("key-a", { ...use({ sent: 3, pausedForMs: 5_000 }), exportsRunning: 0 }).budgetWait?.reason,
    ).toBe("other");
    // Room in the window, or nothing queued: not waiting.
    expect(catalogProgress("key-a", { ...use({ sent: 9 }), exportsRunning: 1 }).budgetWait).toBeNull();
    expect(catalogProgress("key-a", { ...use({ bulk: 0 }), exportsRunning: 1 }).budgetWait).toBeNull();
    expect(catalogProgress("key-a").budgetWait).toBeNull();
    walk.finish("done");
    expect(isCatalogLoading("key-a")).toBe(false);
    expect(catalogProgress("key-a", { ...use(), exportsRunning: 1 }).budgetWait).toBeNull();
    expect(catalogProgress("key-unknown")).toMatchObject({ state: "idle", budgetWait: null });
  });

  it("counts the exports running per key, from every session, until each ends (once)", () => {
    const limit = new RunningLimit({ perSession: 3, perKey: 5, message: () => "busy" });
    const first = limit.acquire("sid-1", "key-b");
    const second = limit.acquire("sid-2", "key-b");
    expect(limit.runningForKey("key-b")).toBe(2);
    first.release();
    first.release();
    expect(limit.runningForKey("key-b")).toBe(1);
    second.release();
    expect(limit.runningForKey("key-b")).toBe(0);
    expect(limit.runningForKey("key-c")).toBe(0);
  });
});
