import { describe, expect, it } from "vitest";

import { NO_MIRROR_FILTERS, writeTransactionFilters } from "./transaction-filters";

describe("writeTransactionFilters", () => {
  it("writes only what is set; the zone only with dates", () => {
    const base = { from: null, to: null, tz: "Asia/Tokyo", status: null, search: "", mirror: NO_MIRROR_FILTERS };
    expect(writeTransactionFilters(new URLSearchParams(), base).toString()).toBe("");
    expect(
      writeTransactionFilters(
        new URLSearchParams(),
        { ...base, from: "2026-01-01", mirror: { ...NO_MIRROR_FILTERS, driver: "D-1042", amountMin: "25" } },
        { column: "amount", dir: "asc" },
      ).toString(),
    ).toBe("from=2026-01-01&tz=Asia%2FTokyo&driver=D-1042&amountMin=25&sort=amount&dir=asc");
  });
});
