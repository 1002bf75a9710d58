import { describe, expect, it } from "vitest";

import { makeTransactions, META } from "./fixtures/rows";
import { aboutRows, xlsxRecord, xlsxText } from "./xlsx-cells";

const base = makeTransactions(1)[0];
if (base === undefined) throw new Error("no transaction");

describe("xlsxText", () => {
  it("neutralises formulas, writes line breaks as LF and keeps to Excel's 32,767 characters a cell", () => {
    expect(xlsxText("=1+2")).toBe("'=1+2");
    expect(xlsxText("a\r\nb\rc")).toBe("a\nb\nc");
    expect(xlsxText("x".repeat(40_000))).toHaveLength(32_767);
  });
});

describe("xlsxRecord", () => {
  it("gives dates as dates, the model's decimals as numbers, and text neutralised", () => {
    const record = xlsxRecord({ ...base, amount: "-12.50", reference: "=R1", def: null });
    expect(record[0]).toEqual(new Date(base.at));
    expect(record[7]).toBe(-12.5);
    expect(record[2]).toBe("'=R1");
    expect(record.slice(15, 18)).toEqual([null, null, null]);
  });

  it("writes a date it cannot read, or a money cell that is not a plain decimal, as neutralised text", () => {
    const record = xlsxRecord({ ...base, at: "=not a date", amount: "-1e3" });
    expect(record[0]).toBe("'=not a date");
    expect(record[7]).toBe("'-1e3");
  });
});

describe("aboutRows", () => {
  it("lists the filters and both counts, with the days' zone in their labels", () => {
    const facts = new Map(aboutRows(META, 249));
    expect(facts.get("From (UTC day)")).toBe("2026-05-01");
    expect(facts.get("Rows expected at the start")).toBe(250);
    expect(facts.get("Rows exported")).toBe(249);
    const zoned = new Map(
      aboutRows({ ...META, filters: {}, dateFilter: { timeZone: "America/Chicago", from: null, to: null } }, 0),
    );
    expect(zoned.get("From (day in America/Chicago)")).toBe("any");
    expect(zoned.get("To (day in America/Chicago)")).toBe("any");
    expect(zoned.get("Search")).toBe("none");
  });

  it("states every mirror-only filter, the sort, the local-date basis, and live data when not from the mirror", () => {
    const facts = new Map(
      aboutRows(
        {
          ...META,
          dateBasis: "local",
          narrowing: { card: "0042", amountMin: "10", gallonsMax: "80" },
          sort: { column: "driver", direction: "asc" },
        },
        0,
      ),
    );
    expect(facts.get("From (purchase-local date)")).toBe("2026-05-01");
    expect(facts.has("From (UTC day)")).toBe(false);
    expect(facts.get("Date basis")).toContain("own local date");
    expect(facts.get("Card")).toBe("•••• 0042");
    expect(facts.get("Amount")).toBe("at least $10");
    expect(facts.get("Gallons")).toBe("at most 80 gal");
    expect(facts.get("Driver")).toBe("any");
    expect(facts.get("Sort")).toBe("By driver, A to Z");
    expect(facts.get("Data as of (UTC)")).toContain("live");
  });
});
