import { describe, expect, it } from "vitest";

import { dateBound, locationQuery, transactionQuery, type Variants } from "./negotiation";

describe("dateBound", () => {
  it("sends a UTC date as the date, or as its first/last millisecond", () => {
    expect(dateBound("2026-05-10", "from", "date")).toBe("2026-05-10");
    expect(dateBound("2026-05-10", "from", "datetime")).toBe("2026-05-10T00:00:00Z");
    expect(dateBound("2026-05-10", "to", "datetime")).toBe("2026-05-10T23:59:59.999Z");
  });

  it("sends an instant as it is to a datetime upstream, and as the UTC day covering it to a dates-only one", () => {
    // The first and last millisecond of May 10 in Los Angeles (PDT).
    expect(dateBound("2026-05-10T07:00:00.000Z", "from", "datetime")).toBe("2026-05-10T07:00:00.000Z");
    expect(dateBound("2026-05-11T06:59:59.999Z", "to", "datetime")).toBe("2026-05-11T06:59:59.999Z");
    expect(dateBound("2026-05-10T07:00:00.000Z", "from", "date")).toBe("2026-05-10");
    expect(dateBound("2026-05-11T06:59:59.999Z", "to", "date")).toBe("2026-05-11");
  });
});

describe("transactionQuery and locationQuery", () => {
  const variants = () => ({ dateStyle: "date", locationSearch: "search", scopeNaming: "unknown" }) as Variants;

  it("builds the query in the upstream's current forms", () => {
    const transactions = transactionQuery({ page: 2, limit: 50, from: "2026-05-01", to: "2026-05-31", search: "x" });
    expect(transactions.build(variants()).toString()).toBe("page=2&limit=50&from=2026-05-01&to=2026-05-31&search=x");
    const datetime = { ...variants(), dateStyle: "datetime" } as const;
    expect(transactions.build(datetime).get("to")).toBe("2026-05-31T23:59:59.999Z");
    const locations = locationQuery({ brand: "B", state: "TX", search: "fuel" });
    expect(locations.build({ ...variants(), locationSearch: "q" }).toString()).toBe("brand=B&state=TX&q=fuel");
  });

  it("switches a refused form, and can switch it back", () => {
    const shared = variants();
    const revert = transactionQuery({ from: "2026-05-01" }).negotiate?.("from", variants(), shared);
    expect(shared.dateStyle).toBe("datetime");
    revert?.();
    expect(shared.dateStyle).toBe("date");
    const swapped = locationQuery({ search: "fuel" }).negotiate?.("search", variants(), shared);
    expect(shared.locationSearch).toBe("q");
    swapped?.();
    expect(shared.locationSearch).toBe("search");
  });

  it("does not negotiate a field the query did not send in a form", () => {
    const shared = variants();
    expect(transactionQuery({ status: "completed" }).negotiate?.("from", variants(), shared)).toBeUndefined();
    expect(transactionQuery({ from: "2026-05-01" }).negotiate?.("status", variants(), shared)).toBeUndefined();
    expect(locationQuery({ brand: "B" }).negotiate?.("search", variants(), shared)).toBeUndefined();
    expect(shared).toEqual(variants());
  });
});
