import { describe, expect, it } from "vitest";

import type { JurisdictionReport, JurisdictionRow } from "@/lib/model/insight-jurisdictions";

import { emptyJurisdictionReport, withPrevious } from "./jurisdictions";

// withPrevious, pure (no store needed): the previous period's figures on the current rows, and a row for every
// state × fuel bought in the previous period only, so the rows' previous figures add up to the previous totals (the
// tie-out, lib/bff/tie-out, found the report's files' "Previous" columns short of their Total line).

const row = (state: string, fuel: JurisdictionRow["fuel"], purchases: number, amount: string): JurisdictionRow => ({
  state,
  fuel,
  products: [fuel === "diesel" ? "Diesel" : "Unleaded 87"],
  purchases,
  gallons: "10.000",
  amount,
  averagePrice: "4.000",
  defGallons: "0.000",
  defAmount: "0.00",
  previous: null,
});

const reportOf = (...rows: JurisdictionRow[]): JurisdictionReport => ({ ...emptyJurisdictionReport(), rows });

describe("withPrevious", () => {
  it("keeps a state × fuel bought only in the previous period, with zeros now, in the report's order", () => {
    const current = reportOf(row("TX", "diesel", 2, "80.00"), row("", "unleaded", 1, "40.00"));
    const previous = reportOf(
      row("TX", "diesel", 1, "40.00"),
      row("OK", "unleaded", 3, "120.00"),
      row("TX", "unleaded", 1, "9.99"),
    );
    const rows = withPrevious(current, previous).rows;
    expect(rows.map((r) => `${r.state || "(none)"} ${r.fuel}`)).toEqual([
      "OK unleaded",
      "TX diesel",
      "TX unleaded",
      "(none) unleaded",
    ]);
    expect(rows[0]).toMatchObject({ purchases: 0, gallons: "0.000", amount: "0.00", averagePrice: null });
    expect(rows[0]?.previous).toMatchObject({ purchases: 3, amount: "120.00" });
    expect(rows[1]).toMatchObject({ purchases: 2, previous: { purchases: 1, amount: "40.00" } });
    expect(rows[3]?.previous).toBeNull();
    // Every previous purchase is on some row.
    expect(rows.reduce((n, r) => n + (r.previous?.purchases ?? 0), 0)).toBe(5);
  });

  it("leaves the report as it is without a previous period", () => {
    const current = reportOf(row("TX", "diesel", 2, "80.00"));
    expect(withPrevious(current, null)).toBe(current);
  });
});
