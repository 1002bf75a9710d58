import { describe, expect, it } from "vitest";

import { pageOf, Transaction, TransactionDetail } from "../model";
import { containerAt, expectInvalidResponse, load, withValue } from "./fixtures/fixture-body";
import { reshapeTransactionDetail, reshapeTransactionPage } from "./reshape";

const pilot = {
  id: "5e0d2b7c-1f4a-4c3e-8b9d-6a7f0e1d2c3b",
  name: "Pilot Travel Center #312",
  locNum: "00312",
  city: "Amarillo",
  state: "TX",
};
const delgado = { id: "1b9e7c5a-3d2f-4e6b-a8c0-7d5e3f1a9b2c", name: "Maria Delgado", truckId: "T-1042" };
const okafor = { id: "6f4d2b0e-8c7a-4b5d-9e3f-1a2c4e6f8b0d", name: "James Okafor", truckId: null };
/** The first transaction of both list fixtures, as the model has it. */
const firstTransaction: Transaction = {
  id: "3f1c9a52-7b4e-4d2a-9c61-0e8f5b2a7d13",
  reference: "TX-20261118-0004821",
  at: "2026-11-18T20:32:07.000Z",
  localOffsetMinutes: -360,
  status: "completed",
  product: "diesel",
  gallons: "118.412",
  pricePerGallon: "3.849",
  amount: "455.77",
  station: pilot,
  driver: delgado,
  card: { last4: "4417" },
  def: { gallons: "4.500", amount: "18.86", category: "pump" },
};

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

describe("reshapeTransactionDetail", () => {
  const primaryDetail: TransactionDetail = {
    ...firstTransaction,
    station: { ...pilot, address: "7101 I-40 E", zip: "79118" },
    driver: { ...delgado, email: "maria.delgado@prairiefreight.example" },
    card: { last4: "4417", type: "fleet" },
    source: "pos",
    createdAt: "2026-11-18T20:32:09.114Z",
    updatedAt: "2026-11-18T20:40:00.000Z",
    audit: null,
    extra: {},
  };

  it("reads the primary detail, wrapped in data", () => {
    const detail = reshapeTransactionDetail(load("transaction-detail-primary"));
    expect(detail).toEqual(primaryDetail);
    expect(TransactionDetail.parse(detail)).toEqual(detail);
  });

  it("reads the bare single resource the same way", () => {
    expect(reshapeTransactionDetail(load("transaction-detail-primary-bare"))).toEqual(primaryDetail);
  });

  it("reads the alternative detail: audit as sent, the primary's additions null", () => {
    const detail = reshapeTransactionDetail(load("transaction-detail-alternative"));
    expect(detail).toEqual({
      ...firstTransaction,
      localOffsetMinutes: null,
      station: { ...pilot, address: null, zip: null },
      driver: { ...delgado, email: null },
      card: { last4: "4417", type: null },
      source: null,
      createdAt: null,
      updatedAt: null,
      audit: {
        received_at: "2026-11-18T20:32:09Z",
        carrier_ref: "CR-88213-A",
        batch_id: "B20261118-07",
        reviewed_by: null,
      },
      extra: {},
    });
    expect(TransactionDetail.parse(detail)).toEqual(detail);
  });

  it("keeps unknown fields in extra, nested ones as parent.field, and never the withheld fee", () => {
    const detail = reshapeTransactionDetail(load("transaction-detail-extra-fields"));
    expect(detail.extra).toEqual({
      odometer: 412883,
      invoice: { number: "INV-2026-11-0441", lines: 2 },
      "station.brand": "pilot",
      "station.lat": 35.1923,
    });
    expect(detail.audit).toEqual({ carrier_ref: "CR-88213-A", pricing: { retail: "3.934" } });
    expect(detail.station).toEqual(primaryDetail.station);
    expect(JSON.stringify(detail)).not.toMatch(/fee_deduction|0\.085/);
    expect(TransactionDetail.parse(detail)).toEqual(detail);
  });

  it("never passes card numbers, secrets or a __proto__ key on to extra or audit", () => {
    const body = JSON.parse(
      JSON.stringify(load("transaction-detail-primary"))
        .replace(
          '"source":',
          '"card_number": "4111111111111111", "pan_hash": "ok", "memo": "4111 1111 1111 1111", "terminal": 4111111111111111, "access_token": "fft_x", "__proto__": {"polluted": true}, "audit_note": "fine", "source":',
        )
        .replace('"last4": "4417"', '"last4": "4417", "pan": "4000056655665556"'),
    ) as unknown;
    const detail = reshapeTransactionDetail(body);
    const text = JSON.stringify(detail);
    expect(text).not.toMatch(/4111|4000056655665556|fft_x|card_number|access_token/);
    expect(detail.extra).toMatchObject({
      pan_hash: "ok",
      memo: "[withheld]",
      terminal: "[withheld]",
      audit_note: "fine",
    });
    expect(Object.getPrototypeOf(detail.extra)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(detail.extra, "__proto__")).toBe(true);
  });

  it("names the offending field under data when wrapped, at the top when bare", () => {
    expectInvalidResponse(
      () => reshapeTransactionDetail(withValue("transaction-detail-primary", "data.updated_at", "2026-11-18T20:40:00")),
      "data.updated_at",
      "The Fleet Fuel API sent a transaction we cannot read: data.updated_at is not a date and time with a time zone (Z or an offset)",
    );
    expectInvalidResponse(
      () => reshapeTransactionDetail(withValue("transaction-detail-primary-bare", "price_per_gallon", "3,849")),
      "price_per_gallon",
      "The Fleet Fuel API sent a transaction we cannot read: price_per_gallon is not a number or decimal string",
    );
    expectInvalidResponse(
      () => reshapeTransactionDetail(withValue("transaction-detail-alternative", "data.audit", "CR-88213-A")),
      "data.audit",
      "The Fleet Fuel API sent a transaction we cannot read: data.audit is not an object",
    );
    expectInvalidResponse(
      () => reshapeTransactionDetail({ ok: true, data: null }),
      "data",
      "The Fleet Fuel API sent a transaction we cannot read: data is null",
    );
    expectInvalidResponse(
      () => reshapeTransactionDetail({ ok: false, data: {} }),
      "ok",
      "The Fleet Fuel API sent a transaction we cannot read: ok is not true",
    );
  });
});
