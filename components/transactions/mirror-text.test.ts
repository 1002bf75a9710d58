import { describe, expect, it } from "vitest";

import type { DataOrigin, SyncStatusReply } from "@/lib/model/mirror-replies";

import { mirrorCanAnswer, mirrorReachText, mirrorUnavailableText, originText, partialText } from "./mirror-text";

const NOW = Date.parse("2026-11-24T12:00:00Z");
const SETTLED = { pending: false, failed: false };

const BACKFILLING: SyncStatusReply = {
  state: "backfilling",
  running: true,
  coverage: { from: "2025-03-14T08:00:00Z", to: "2026-11-24T11:59:00Z" },
  rows: 16_000,
  lastHeadSync: "2026-11-24T11:59:48Z",
  lastVerification: null,
  backfill: { done: 16_000, expected: 25_000, complete: false, timeLeftMs: 170_000 },
  nextHeadSync: null,
  error: null,
};
const READY: SyncStatusReply = {
  ...BACKFILLING,
  state: "ready",
  running: false,
  backfill: { done: 25_000, expected: 25_000, complete: true, timeLeftMs: null },
};
const FROM_MIRROR: DataOrigin = { source: "mirror", asOf: "2026-11-24T11:59:48Z", note: null };

describe("whether the local copy answers the new filters", () => {
  it("answers when ready, or while the history loads once it holds some", () => {
    expect(mirrorCanAnswer(READY)).toBe(true);
    expect(mirrorCanAnswer(BACKFILLING)).toBe(true);
    expect(mirrorCanAnswer({ ...BACKFILLING, coverage: { from: null, to: null } })).toBe(false);
    expect(mirrorCanAnswer({ ...READY, state: "starting" })).toBe(false);
    // A failed last run over rows already held still answers.
    expect(mirrorCanAnswer({ ...BACKFILLING, state: "error", error: "The last update failed." })).toBe(true);
    expect(mirrorCanAnswer({ ...READY, state: "error", coverage: { from: null, to: null }, lastHeadSync: null })).toBe(
      false,
    );
    expect(mirrorCanAnswer(undefined)).toBe(false);
    expect(mirrorUnavailableText(READY, SETTLED)).toBeNull();
  });

  it("says in one line why the filters are not offered", () => {
    expect(mirrorUnavailableText({ ...READY, state: "off" }, SETTLED)).toBe(
      "Filters by driver, card, truck, station, state, product, amount and gallons need a local copy of your transactions, which this dashboard does not keep.",
    );
    const noScope = "This key may not read transactions, so there is no local copy for it.";
    expect(mirrorUnavailableText({ ...READY, state: "off", error: noScope }, SETTLED)).toBe(
      `Filters by driver, card, truck, station, state, product, amount and gallons are not offered: ${noScope}`,
    );
    expect(mirrorUnavailableText({ ...READY, state: "starting" }, SETTLED)).toContain(
      "are offered once the local copy of your transactions has its first rows: it is being made now.",
    );
    const failedFirst = { ...READY, state: "error" as const, coverage: { from: null, to: null }, lastHeadSync: null };
    expect(mirrorUnavailableText({ ...failedFirst, error: "The Fleet Fuel API did not answer." }, SETTLED)).toBe(
      "Filters by driver, card, truck, station, state, product, amount and gallons are not offered: The Fleet Fuel API did not answer.",
    );
    expect(mirrorUnavailableText(undefined, { pending: false, failed: true })).toContain(
      "whose state could not be read just now.",
    );
  });
});

describe("mirrorReachText", () => {
  it("says from when the filters answer while the history loads, and nothing once it is complete", () => {
    expect(mirrorReachText(BACKFILLING)).toBe(
      "While the rest of the history loads, these filters answer for date ranges from Fri, Mar 14, 2025 (UTC) on.",
    );
    expect(mirrorReachText(READY)).toBeNull();
    expect(mirrorReachText(undefined)).toBeNull();
  });
});

describe("originText", () => {
  it("says where the rows come from, and how fresh the local copy is", () => {
    expect(originText(FROM_MIRROR, NOW)).toBe("From your local copy · as of 12 s ago");
    expect(originText(FROM_MIRROR, 0)).toBe("From your local copy");
    expect(originText({ source: "upstream", asOf: null, note: null }, NOW)).toBe("Live from the provider");
    expect(
      originText(
        { source: "upstream", asOf: null, note: "Your local copy does not reach back to this range yet." },
        NOW,
      ),
    ).toBe("Live from the provider · Your local copy does not reach back to this range yet.");
  });
});

describe("partialText", () => {
  it("says so when the range starts before what the local copy holds while history loads", () => {
    const text =
      "Partial: your local copy holds transactions from Fri, Mar 14, 2025 (UTC) on; older ones are still loading, so the earlier days of this range are missing for now.";
    expect(partialText(FROM_MIRROR, null, BACKFILLING)).toBe(text);
    expect(partialText(FROM_MIRROR, "2025-01-01T00:00:00.000Z", BACKFILLING)).toBe(text);
  });

  it("says nothing when the range is held, the history is complete, or the rows are live", () => {
    expect(partialText(FROM_MIRROR, "2025-06-01T00:00:00.000Z", BACKFILLING)).toBeNull();
    expect(partialText(FROM_MIRROR, null, READY)).toBeNull();
    expect(partialText({ source: "upstream", asOf: null, note: null }, null, BACKFILLING)).toBeNull();
    expect(partialText(undefined, null, BACKFILLING)).toBeNull();
  });
});
