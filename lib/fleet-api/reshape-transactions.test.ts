import { describe, expect, it } from "vitest";

import { pageOf, Transaction } from "../model";
import { containerAt, expectInvalidResponse, load, withValue } from "./fixtures/fixture-body";
import { firstTransaction } from "./fixtures/transaction-models";
import { reshapeTransactionPage } from "./reshape";

const okafor = { id: "6f4d2b0e-8c7a-4b5d-9e3f-1a2c4e6f8b0d", name: "James Okafor", truckId: null };

describe("reshapeTransactionPage", () => {
  it("reads the primary list (numbers, station offsets, def of zero as none)", () => {
    const page = reshapeTransactionPage(load("transactions-primary"));
    expect(pageOf(Transaction).parse(page)).toEqual(page);
    expect({ ...page, items: [] }).toEqual({ page: 1, limit: 3, total: 24987, pages: 8329, items: [] });
    const [first, second, refund] = page.items;
    expect(first).toEqual(firstTransaction);
    expect(second).toMatchObject({
      at: "2026-11-18T14:05:44.250Z",
      localOffsetMinutes: -300,
      status: "pending",
      gallons: "123.450",
      pricePerGallon: "3.849",
      amount: "475.18",
      driver: okafor,
      def: null,
    });
    expect(refund).toMatchObject({
      at: "2026-11-18T05:48:19.000Z",
      localOffsetMinutes: -420,
      gallons: "-11.040",
      amount: "-43.93",
      def: null,
    });
  });

  it("reads the alternative list (decimal strings, Z, no ok, def null or missing)", () => {
    const page = reshapeTransactionPage(load("transactions-alternative"));
    expect(pageOf(Transaction).parse(page)).toEqual(page);
    expect({ ...page, items: [] }).toEqual({ page: 2, limit: 3, total: 2500, pages: 834, items: [] });
    const [first, second, refund] = page.items;
    expect(first).toEqual({ ...firstTransaction, localOffsetMinutes: null });
    expect(second).toMatchObject({
      at: "2026-11-18T14:05:44.250Z",
      localOffsetMinutes: null,
      status: "failed",
      product: "unleaded",
      gallons: "12.300",
      pricePerGallon: "3.160",
      amount: "38.86",
      def: null,
    });
    expect(refund).toMatchObject({ gallons: "-11.040", amount: "-43.93", def: null });
  });

  it("gives both shapes the same model for the same transaction", () => {
    const primary = reshapeTransactionPage(load("transactions-primary")).items[0];
    const alternative = reshapeTransactionPage(load("transactions-alternative")).items[0];
    expect({ ...primary, localOffsetMinutes: null }).toEqual(alternative);
  });

  it("reads any offset, with or without fractional seconds", () => {
    const body = withValue("transactions-primary", "data.items.0.transaction_at", "2026-11-19T02:02:07.5+05:30");
    expect(reshapeTransactionPage(body).items[0]).toMatchObject({
      at: "2026-11-18T20:32:07.500Z",
      localOffsetMinutes: 330,
    });
  });

  it("rounds amounts, prices and volumes with more digits than the model keeps", () => {
    let body = withValue("transactions-primary", "data.items.0.price_per_gallon", 3.8495);
    body = containerAt(body, []);
    const item = containerAt(body, ["data", "items", 0]);
    item.amount = -0.005;
    item.gallons = "118.4125";
    item.def = { gallons: "4.5004", amount: 18.855, category: "pump" };
    expect(reshapeTransactionPage(body).items[0]).toMatchObject({
      pricePerGallon: "3.850",
      amount: "-0.01",
      gallons: "118.413",
      def: { gallons: "4.500", amount: "18.86", category: "pump" },
    });
  });

  it("treats a def that rounds to nothing as no def", () => {
    const body = withValue("transactions-primary", "data.items.0.def", {
      gallons: 1e-7,
      amount: "0.004",
      category: "pump",
    });
    expect(reshapeTransactionPage(body).items[0]?.def).toBeNull();
  });

  it("keeps a def that carries money even when its gallons are zero", () => {
    const body = withValue("transactions-primary", "data.items.1.def", { gallons: 0, amount: 2.5, category: "none" });
    expect(reshapeTransactionPage(body).items[1]?.def).toEqual({ gallons: "0.000", amount: "2.50", category: "none" });
  });

  it("ignores unknown fields in list items", () => {
    const body = withValue("transactions-primary", "data.items.0.odometer", 412883);
    containerAt(body, ["data", "items", 0, "station"]).brand = "pilot";
    containerAt(body, ["data"]).next_cursor = "abc";
    expect(reshapeTransactionPage(body).items[0]).toEqual(firstTransaction);
  });

  it("reads an empty page past the end", () => {
    const page = reshapeTransactionPage({
      ok: true,
      data: { page: 9000, limit: 3, total: 24987, pages: 8329, items: [] },
    });
    expect(page.items).toEqual([]);
  });

  it.each<[string, unknown, string | undefined, string]>([
    [
      "a missing items",
      withValue("transactions-primary", "data.items", undefined),
      "data.items",
      "data.items is missing",
    ],
    ["a missing data", { ok: true }, "data", "data is missing"],
    [
      'an amount "abc"',
      withValue("transactions-alternative", "data.items.2.amount", "abc"),
      "data.items.2.amount",
      "data.items.2.amount is not a number or decimal string",
    ],
    [
      "an empty gallons",
      withValue("transactions-alternative", "data.items.0.gallons", ""),
      "data.items.0.gallons",
      "data.items.0.gallons is not a number or decimal string",
    ],
    [
      "a missing amount",
      withValue("transactions-primary", "data.items.1.amount", undefined),
      "data.items.1.amount",
      "data.items.1.amount is missing",
    ],
    [
      'a status "settled"',
      withValue("transactions-primary", "data.items.1.status", "settled"),
      "data.items.1.status",
      "data.items.1.status is not one of completed, pending, failed",
    ],
    [
      "a timestamp without zone",
      withValue("transactions-alternative", "data.items.0.transaction_at", "2026-11-18T20:32:07"),
      "data.items.0.transaction_at",
      "data.items.0.transaction_at is not a date and time with a time zone (Z or an offset)",
    ],
    [
      'a def amount "abc"',
      withValue("transactions-primary", "data.items.0.def.amount", "abc"),
      "data.items.0.def.amount",
      "data.items.0.def.amount is not a number or decimal string",
    ],
    [
      "a numeric card last4",
      withValue("transactions-primary", "data.items.0.card.last4", 4417),
      "data.items.0.card.last4",
      "data.items.0.card.last4 is not a string",
    ],
    ["a page 0", withValue("transactions-primary", "data.page", 0), "data.page", "data.page is less than 1"],
    [
      "a fractional total",
      withValue("transactions-primary", "data.total", 2.5),
      "data.total",
      "data.total is not a whole number",
    ],
    ["ok: false", withValue("transactions-primary", "ok", false), "ok", "ok is not true"],
    [
      "items that are not a list",
      withValue("transactions-primary", "data.items", {}),
      "data.items",
      "data.items is not a list",
    ],
    ["null", null, undefined, "the reply is null"],
    ["an HTML page", "<html>Bad gateway</html>", undefined, "the reply is not an object"],
  ])("refuses %s, naming the field", (_label, body, field, problem) => {
    expectInvalidResponse(
      () => reshapeTransactionPage(body),
      field,
      `The Fleet Fuel API sent a transaction list we cannot read: ${problem}`,
    );
  });

  it("turns a body that throws while being read into invalid_response too", () => {
    const body = {};
    Object.defineProperty(body, "data", {
      enumerable: true,
      get: () => {
        throw new TypeError("boom");
      },
    });
    expectInvalidResponse(
      () => reshapeTransactionPage(body),
      undefined,
      "The Fleet Fuel API sent a transaction list we cannot read: the reply could not be read",
    );
  });
});
