import { describe, expect, it } from "vitest";

import { Transaction } from "@/lib/model";

import { COLUMNS, EXPORT_HEADERS, NUMBER_FORMATS } from "./columns";
import { EXPECTED_HEADERS } from "./fixtures/csv";
import { makeTransactions } from "./fixtures/rows";

const base = makeTransactions(1)[0];
if (base === undefined) throw new Error("no transaction");
const valuesOf = (t: Transaction): Record<string, string | null> =>
  Object.fromEntries(COLUMNS.map((c) => [c.header, c.value(t)]));

describe("export columns", () => {
  it("are the 19 headers in order, one list for both formats", () => {
    expect(EXPORT_HEADERS).toEqual(EXPECTED_HEADERS);
  });

  it("take each value from the model as it is, the money and volume columns as the model's decimals", () => {
    const values = valuesOf(base);
    expect(values).toMatchObject({
      "Date (UTC)": base.at,
      Reference: base.reference,
      Gallons: base.gallons,
      "Price per gallon": base.pricePerGallon,
      Amount: base.amount,
      Station: base.station.name,
      "Station number": base.station.locNum,
      Id: base.id,
    });
    const kinds = Object.fromEntries(COLUMNS.map((c) => [c.header, c.kind]));
    expect(kinds).toMatchObject({
      "Date (UTC)": "date",
      Gallons: "volume",
      "Price per gallon": "price",
      Amount: "money",
    });
    expect(NUMBER_FORMATS).toEqual({
      date: "yyyy-mm-dd hh:mm:ss",
      text: undefined,
      volume: "0.000",
      price: "0.000",
      money: "0.00",
    });
  });

  it("write the local offset as UTC±hh:mm text, the card behind bullets, and nothing for a missing DEF", () => {
    const offsets = [-360, 330, 0, null].map(
      (minutes) => valuesOf({ ...base, localOffsetMinutes: minutes })["Local offset"],
    );
    expect(offsets).toEqual(["UTC-06:00", "UTC+05:30", "UTC+00:00", null]);
    expect(valuesOf({ ...base, card: { last4: "0042" } }).Card).toBe("•••• 0042");
    const withoutDef = valuesOf({ ...base, def: null });
    expect([withoutDef["DEF gallons"], withoutDef["DEF amount"], withoutDef["DEF category"]]).toEqual([
      null,
      null,
      null,
    ]);
  });
});
