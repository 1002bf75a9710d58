import { describe, expect, it } from "vitest";

import type { CatalogStation, PriceRecord } from "@/lib/mirror";

import {
  changePoints,
  observedPriceAt,
  observedPricesOf,
  type ObservedSpan,
  observedSpans,
} from "./price-observations";

// Which price a station had at an instant, from the walks' observations (fixed instants, no clock).

const HOUR_MS = 3_600_000;
const WINDOW_MS = 24 * HOUR_MS;
const at = (iso: string) => Date.parse(iso);

describe("observedSpans", () => {
  it("spans each record from its stamp to the walk that saw it; the latest to the station's last walk", () => {
    const records: PriceRecord[] = [
      { updatedMs: at("2026-03-01T08:00:00Z"), priceMilli: 3_899, seenMs: at("2026-03-01T12:00:00Z") },
      { updatedMs: at("2026-03-03T06:00:00Z"), priceMilli: 3_749, seenMs: at("2026-03-03T12:00:00Z") },
    ];
    expect(observedSpans(records, at("2026-03-09T12:00:00Z"))).toEqual([
      { fromMs: at("2026-03-01T08:00:00Z"), toMs: at("2026-03-01T12:00:00Z"), priceMilli: 3_899 },
      { fromMs: at("2026-03-03T06:00:00Z"), toMs: at("2026-03-09T12:00:00Z"), priceMilli: 3_749 },
    ]);
  });

  it("reads a catalog's stations and their records", () => {
    const station = { id: "A", lastSeenMs: at("2026-03-09T00:00:00Z") } as CatalogStation;
    const prices = new Map([["A", [{ updatedMs: at("2026-03-01T00:00:00Z"), priceMilli: 3_000 }]]]);
    expect(observedPricesOf({ stations: [station], prices }).get("A")).toEqual([
      { fromMs: at("2026-03-01T00:00:00Z"), toMs: at("2026-03-09T00:00:00Z"), priceMilli: 3_000 },
    ]);
  });
});

describe("observedPriceAt", () => {
  const spans: ObservedSpan[] = [
    { fromMs: at("2026-03-01T00:00:00Z"), toMs: at("2026-03-02T00:00:00Z"), priceMilli: 3_000 },
    { fromMs: at("2026-03-05T00:00:00Z"), toMs: at("2026-03-06T00:00:00Z"), priceMilli: 3_500 },
  ];

  it("answers the span holding the instant, edges included", () => {
    expect(observedPriceAt(spans, at("2026-03-01T12:00:00Z"), WINDOW_MS)).toEqual({ priceMilli: 3_000, apartMs: 0 });
    expect(observedPriceAt(spans, at("2026-03-06T00:00:00Z"), WINDOW_MS)).toEqual({ priceMilli: 3_500, apartMs: 0 });
  });

  it("answers the nearest span within the window, and null beyond it", () => {
    expect(observedPriceAt(spans, at("2026-03-02T20:00:00Z"), WINDOW_MS)).toEqual({
      priceMilli: 3_000,
      apartMs: 20 * HOUR_MS,
    });
    expect(observedPriceAt(spans, at("2026-03-03T00:00:00Z"), WINDOW_MS)).toEqual({
      priceMilli: 3_000,
      apartMs: WINDOW_MS,
    });
    expect(observedPriceAt(spans, at("2026-03-03T00:00:01Z"), WINDOW_MS)).toBeNull();
    expect(observedPriceAt(spans, at("2026-03-04T01:00:00Z"), WINDOW_MS)).toEqual({
      priceMilli: 3_500,
      apartMs: 23 * HOUR_MS,
    });
    expect(observedPriceAt(spans, at("2026-03-07T00:00:01Z"), WINDOW_MS)).toBeNull();
    expect(observedPriceAt(undefined, at("2026-03-01T12:00:00Z"), WINDOW_MS)).toBeNull();
  });

  it("gives a tie in a gap to the later span", () => {
    const close: ObservedSpan[] = [
      { fromMs: 0, toMs: 10, priceMilli: 1 },
      { fromMs: 20, toMs: 30, priceMilli: 2 },
    ];
    expect(observedPriceAt(close, 14, 100)?.priceMilli).toBe(1);
    expect(observedPriceAt(close, 15, 100)?.priceMilli).toBe(2);
  });

  it("changes its answer only at the change points", () => {
    const points = changePoints([spans], WINDOW_MS);
    const from = at("2026-02-27T00:00:00Z");
    for (let t = from; t < at("2026-03-08T00:00:00Z"); t += HOUR_MS / 4) {
      // Within one interval between change points, the answer's price is the interval start's.
      const start = points.filter((p) => p <= t).at(-1) ?? from;
      expect(observedPriceAt(spans, t, WINDOW_MS)?.priceMilli).toBe(
        observedPriceAt(spans, Math.max(start, from), WINDOW_MS)?.priceMilli,
      );
    }
  });
});
