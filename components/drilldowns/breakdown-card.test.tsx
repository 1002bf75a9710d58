import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import type { DrilldownDetailReply, DrilldownFigures } from "@/lib/model/insight-drilldowns";
import { NOT_SETTLING } from "@/lib/model/metrics";

import { BreakdownCard } from "./breakdown-card";

// A detail page's breakdown rows link to the transactions behind each (review 16: they had no link): the page's key
// and the row's key together, on the covered local dates, as purchase-local dates. Rendered to HTML on the server,
// as the page's first paint is (no DOM environment in this project).

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

const MAY = { from: "2026-05-01", to: "2026-05-31" };
const COVERED = { from: "2026-05-10", to: "2026-05-31" };

const reply: DrilldownDetailReply = {
  dimension: "driver",
  key: "D-1042",
  name: "Ann Lee",
  detail: null,
  periods: { current: MAY, previous: { from: "2026-03-31", to: "2026-04-30" } },
  coverage: { requested: MAY, covered: COVERED, complete: false, asOf: null, note: "loading" },
  previousCoverage: { requested: MAY, covered: null, complete: false, asOf: null, note: "loading" },
  totals: ZERO_FIGURES,
  previous: null,
  settling: NOT_SETTLING,
  trend: { unit: "day", points: [] },
  breakdown: {
    dimension: "station",
    rows: [{ ...ZERO_FIGURES, key: "st-7", name: "Pilot #7", detail: "Joplin, MO", purchases: 2, amount: "10.00" }],
  },
};

describe("a drill-down detail's breakdown", () => {
  it("links each row to the page's key's transactions there, on the covered local dates", () => {
    const html = renderToStaticMarkup(
      <BreakdownCard
        dimension="driver"
        data={reply}
        label="May 2026"
        periodQuery="from=2026-05-01&amp;to=2026-05-31"
      />,
    );
    const href = /href="(\/transactions\?[^"]*)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    expect(href).toBeDefined();
    const params = new URL(href ?? "", "http://x").searchParams;
    expect(Object.fromEntries(params)).toMatchObject({
      from: COVERED.from,
      to: COVERED.to,
      dates: "local",
      driver: "D-1042",
      station: "st-7",
    });
    expect(html).toContain('aria-label="View the transactions of Pilot #7"');
  });
});
