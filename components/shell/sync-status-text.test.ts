import { describe, expect, it } from "vitest";

import type { SyncStatusReply } from "@/lib/model/mirror-replies";

import { secondsUntilSyncNow, syncStatusText } from "./sync-status-text";

const NOW = Date.parse("2026-11-24T12:00:00Z");

const READY: SyncStatusReply = {
  state: "ready",
  running: false,
  coverage: { from: "2024-11-24T00:00:00Z", to: "2026-11-24T11:59:00Z" },
  rows: 25_000,
  lastHeadSync: "2026-11-24T11:59:48Z",
  lastVerification: { at: "2026-11-24T11:50:00Z", ok: true, repairedDays: 0 },
  backfill: { done: 25_000, expected: 25_000, complete: true, timeLeftMs: null },
  nextHeadSync: null,
  error: null,
};

describe("syncStatusText", () => {
  it("says nothing when there is no local copy for this session", () => {
    expect(syncStatusText({ ...READY, state: "off" }, NOW)).toBeNull();
  });

  it("says how fresh a complete copy is, and announces only the state", () => {
    expect(syncStatusText(READY, NOW)).toEqual({
      line: "Up to date · 12 s ago",
      announce: "Your local copy of your transactions is up to date.",
      tone: "quiet",
    });
    expect(syncStatusText(READY, NOW + 60_000)?.announce).toBe(syncStatusText(READY, NOW)?.announce);
    expect(syncStatusText(READY, 0)?.line).toBe("Up to date");
  });

  it("says how far the history has loaded, how much is done and how long is left", () => {
    const backfilling: SyncStatusReply = {
      ...READY,
      state: "backfilling",
      coverage: { from: "2025-03-14T08:00:00Z", to: READY.coverage.to },
      backfill: { done: 16_000, expected: 25_000, complete: false, timeLeftMs: 170_000 },
    };
    expect(syncStatusText(backfilling, NOW)?.line).toBe(
      "Loading history: loaded back to Mar 2025 so far · 64 % · about 3 min",
    );
    const unknown = { ...backfilling, backfill: { ...backfilling.backfill, expected: null, timeLeftMs: null } };
    expect(syncStatusText(unknown, NOW)?.line).toBe("Loading history: loaded back to Mar 2025 so far");
    // Never "100 %" while it is still loading.
    const almost = { ...backfilling, backfill: { ...backfilling.backfill, done: 24_999 } };
    expect(syncStatusText(almost, NOW)?.line).toContain("· 99 % ·");
  });

  it("says when the first copy is being made", () => {
    expect(syncStatusText({ ...READY, state: "starting", lastHeadSync: null }, NOW)?.line).toBe(
      "Making a local copy of your transactions…",
    );
  });

  it("gives the BFF's sentence as it is, as an error", () => {
    const why =
      "The last update of the local copy failed (upstream_unavailable); it is tried again when a page asks for fresh data.";
    expect(syncStatusText({ ...READY, state: "error", error: why }, NOW)).toEqual({
      line: why,
      announce: why,
      tone: "error",
    });
    expect(syncStatusText({ ...READY, state: "error", error: null }, NOW)?.line).toBe(
      "The local copy of your transactions could not be updated.",
    );
  });

  it("counts the seconds until Sync now may start another head sync (0 when it may, or the time is unknown)", () => {
    const next = { ...READY, nextHeadSync: new Date(NOW + 12_300).toISOString() };
    expect(secondsUntilSyncNow(next, NOW)).toBe(13);
    expect(secondsUntilSyncNow(next, NOW + 20_000)).toBe(0);
    expect(secondsUntilSyncNow(next, 0)).toBe(0);
    expect(secondsUntilSyncNow(READY, NOW)).toBe(0);
  });
});
