import { describe, expect, it } from "vitest";

import type { DrilldownFigures } from "@/lib/model/insight-drilldowns";
import type { InsightCoverage } from "@/lib/model/insights";

import { drilldownChange, listCaption } from "./figures";

// The drill-downs' change against the previous period is claimed only when the local copy covers that period whole:
// a part of it (the history still loading) would compare a whole period with a few of its days (review 16, item 6).

const ZERO_FIGURES: DrilldownFigures = {
  purchases: 0,
  gallons: "0.000",
  amount: "0.00",
  averagePricePerGallon: null,
  defGallons: "0.000",
  dieselGallons: "0.000",
  defRatioPercent: null,
  lastPurchaseAt: null,
  lastPurchaseLocalDate: null,
};

const PREVIOUS = { from: "2026-04-01", to: "2026-04-30" };
const CURRENT = { from: "2026-05-01", to: "2026-05-30" };
const figures = (amount: string): DrilldownFigures => ({ ...ZERO_FIGURES, purchases: 3, amount });
const coverage = (covered: InsightCoverage["covered"], complete: boolean): InsightCoverage => ({
  requested: PREVIOUS,
  covered,
  complete,
  asOf: "2026-05-31T12:00:00.000Z",
  note: complete ? null : "The local copy of your transactions reaches back to 2026-04-19 so far.",
});

describe("the drill-downs' change against the previous period", () => {
  it("is said when the previous period is covered whole", () => {
    const change = drilldownChange(figures("150.00"), figures("100.00"), coverage(PREVIOUS, true));
    expect(change).toEqual({ arrow: "▲", text: "50.0 % more spend than the previous 30 days ($100.00)" });
    expect(listCaption("Drivers", "May 2026", { current: CURRENT, previous: PREVIOUS }, coverage(PREVIOUS, true))).toBe(
      "Drivers by spend, May 2026; the change column compares with 2026-04-01 to 2026-04-30. Sort by any column.",
    );
  });

  it("is not claimed over a part of the previous period: the line and the caption say what is covered", () => {
    const part = coverage({ from: "2026-04-19", to: "2026-04-30" }, false);
    const change = drilldownChange(figures("150.00"), figures("100.00"), part);
    expect(change).toEqual({
      arrow: null,
      text: "No change is shown: only 2026-04-19 to 2026-04-30 of the previous period (2026-04-01 to 2026-04-30) is in the local copy so far",
    });
    expect(listCaption("Drivers", "May 2026", { current: CURRENT, previous: PREVIOUS }, part)).toBe(
      "Drivers by spend, May 2026; no change column: only 2026-04-19 to 2026-04-30 of the previous period (2026-04-01 to 2026-04-30) is in the local copy so far. Sort by any column.",
    );
    const none = drilldownChange(figures("150.00"), null, coverage(null, false));
    expect(none?.text).toBe(
      "No change is shown: the previous period (2026-04-01 to 2026-04-30) is not in the local copy yet",
    );
  });
});
