import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { Account, pageOf, Station, StationDetail, Transaction, TransactionDetail } from "../model";
import { FleetApiError } from "./errors";
import {
  reshapeAccount,
  reshapeAuth,
  reshapeStationDetail,
  reshapeStationPage,
  reshapeTransactionDetail,
  reshapeTransactionPage,
} from "./reshape";
import { reshapeError } from "./error-body";
import { MONEY_DIGITS, normalizeDecimal, parseTimestamp, UNIT_PRICE_DIGITS, VOLUME_DIGITS } from "./upstream-values";

// Fixtures are written from fleet-fuel-api-v1.md and the README's "Two profiles" table, one file per variant.
const load = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8")) as unknown;

type Key = string | number;

function isContainer(value: unknown): value is Record<Key, unknown> {
  return typeof value === "object" && value !== null;
}

/** The container at `path` in a fixture body (a test setup step: a wrong path is a broken test). */
function containerAt(body: unknown, path: readonly Key[]): Record<Key, unknown> {
  let current = body;
  for (const key of path) {
    if (!isContainer(current)) throw new Error(`no container at ${path.join(".")}`);
    current = current[key];
  }
  if (!isContainer(current)) throw new Error(`no container at ${path.join(".")}`);
  return current;
}

/** A fixture with one value replaced (or removed, for `undefined`) at a dotted path. */
function withValue(name: string, dottedPath: string, value: unknown): unknown {
  const body = load(name);
  const path: Key[] = dottedPath.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  const last = path.pop();
  if (last === undefined) throw new Error("empty path");
  const container = containerAt(body, path);
  if (value === undefined) Reflect.deleteProperty(container, last);
  else container[last] = value;
  return body;
}

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

function expectInvalidResponse(run: () => unknown, field: string | undefined, message: string): void {
  const error = thrownBy(run);
  expect(error).toBeInstanceOf(FleetApiError);
  expect(error).not.toBeInstanceOf(ZodError);
  expect(error).toMatchObject({ status: 200, code: "invalid_response", field, message });
}

describe("normalizeDecimal: exact, no float arithmetic, half away from zero", () => {
  it.each<[unknown, number, string]>([
    [475.18, MONEY_DIGITS, "475.18"],
    [0.1 + 0.2, MONEY_DIGITS, "0.30"],
    [1.005, MONEY_DIGITS, "1.01"], // (1.005).toFixed(2) is "1.00": the float is 1.00499…, its shortest text is not
    [2.675, MONEY_DIGITS, "2.68"],
    [3.8495, UNIT_PRICE_DIGITS, "3.850"],
    [3.8494, UNIT_PRICE_DIGITS, "3.849"],
    ["12.3", VOLUME_DIGITS, "12.300"],
    [12, VOLUME_DIGITS, "12.000"],
    ["007.50", MONEY_DIGITS, "7.50"],
    [1e21, MONEY_DIGITS, "1000000000000000000000.00"],
    [1.5e22, VOLUME_DIGITS, "15000000000000000000000.000"],
    [1e-7, MONEY_DIGITS, "0.00"],
    [5e-3, MONEY_DIGITS, "0.01"],
    [-5e-3, MONEY_DIGITS, "-0.01"],
    [-0.005, MONEY_DIGITS, "-0.01"],
    ["-0.0050", MONEY_DIGITS, "-0.01"],
    [-0.004, MONEY_DIGITS, "0.00"],
    [-0, MONEY_DIGITS, "0.00"],
    ["-0.00", MONEY_DIGITS, "0.00"],
    [-43.93, MONEY_DIGITS, "-43.93"],
    ["99999999999999999999.995", MONEY_DIGITS, "100000000000000000000.00"],
    [123456789.1235, VOLUME_DIGITS, "123456789.124"],
  ])("%s with %i digits → %s", (value, digits, expected) => {
    expect(normalizeDecimal(value, digits)).toBe(expected);
  });

  it.each<[string, unknown]>([
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["-Infinity", Number.NEGATIVE_INFINITY],
    ["an empty string", ""],
    ["a blank-padded string", " 1.50"],
    ["an exponent string", "1e3"],
    ["a plus sign", "+1.50"],
    ["a bare fraction", ".5"],
    ["a trailing point", "5."],
    ["a thousands separator", "1,000.00"],
    ["text", "abc"],
    ["an absurdly long string", "1".repeat(41)],
    ["null", null],
    ["undefined", undefined],
    ["a boolean", true],
    ["an object", { amount: 1 }],
  ])("rejects %s", (_label, value) => {
    expect(normalizeDecimal(value, MONEY_DIGITS)).toBeNull();
  });
});

describe("parseTimestamp", () => {
  it.each<[string, string, number | null]>([
    ["2026-11-18T20:32:07Z", "2026-11-18T20:32:07.000Z", null],
    ["2026-11-18T14:32:07-06:00", "2026-11-18T20:32:07.000Z", -360],
    ["2026-11-19T02:02:07+05:30", "2026-11-18T20:32:07.000Z", 330],
    ["2026-11-18T14:32:07.25-0600", "2026-11-18T20:32:07.250Z", -360],
    ["2026-11-18T20:32:07.123999Z", "2026-11-18T20:32:07.123Z", null], // sub-ms digits truncated
    ["2026-11-18T20:32Z", "2026-11-18T20:32:00.000Z", null],
    ["2026-11-18T20:32:07+00:00", "2026-11-18T20:32:07.000Z", 0],
    ["2026-11-18T20:32:07-00:00", "2026-11-18T20:32:07.000Z", 0],
    ["2026-12-31T23:30:00-01:00", "2027-01-01T00:30:00.000Z", -60],
  ])("%s → %s, offset %s", (text, at, offsetMinutes) => {
    expect(parseTimestamp(text)).toEqual({ at, offsetMinutes });
  });

  it.each([
    "2026-11-18T20:32:07",
    "2026-11-18",
    "2026-02-30T10:00:00Z",
    "2026-11-18T24:00:00Z",
    "2026-11-18T20:32:60Z",
    "2026-11-18T20:32:07+24:00",
    "18/11/2026 20:32",
    "",
  ])("rejects %j", (text) => {
    expect(parseTimestamp(text)).toBeNull();
  });

  it("rejects what is not a string", () => {
    expect(parseTimestamp(1763497927000)).toBeNull();
    expect(parseTimestamp(null)).toBeNull();
  });
});

describe("reshapeAuth", () => {
  it("reads the primary reply (ok, no scopes)", () => {
    expect(reshapeAuth(load("auth-primary"))).toEqual({
      accessToken: "fft_9b1f3c2e5a7d4b60a8e2c4f61d93b7a0e5c8f2d4a6b1",
      expiresInSeconds: 3600,
      scopes: null,
    });
  });

  it("reads the alternative reply (no ok, scopes)", () => {
    expect(reshapeAuth(load("auth-alternative"))).toEqual({
      accessToken: "fft_2d7e91c4b0a34f5e8c6d1a7b3f9e0c25d4a8b6e1f3c7",
      expiresInSeconds: 3600,
      scopes: ["account", "transactions", "locations"],
    });
  });

  it("reads ok together with scopes, and scopes: null", () => {
    expect(
      reshapeAuth({ ok: true, access_token: "t", token_type: "bearer", expires_in: 12, scopes: ["read"] }).scopes,
    ).toEqual(["read"]);
    expect(reshapeAuth({ access_token: "t", expires_in: 0, scopes: null }).scopes).toBeNull();
  });

  it("names what is wrong", () => {
    expectInvalidResponse(
      () => reshapeAuth(withValue("auth-primary", "access_token", undefined)),
      "access_token",
      "The Fleet Fuel API sent a sign-in reply we cannot read: access_token is missing",
    );
    expectInvalidResponse(
      () => reshapeAuth(withValue("auth-primary", "expires_in", "3600")),
      "expires_in",
      "The Fleet Fuel API sent a sign-in reply we cannot read: expires_in is not a number",
    );
    expectInvalidResponse(
      () => reshapeAuth(withValue("auth-primary", "token_type", "MAC")),
      "token_type",
      "The Fleet Fuel API sent a sign-in reply we cannot read: token_type is not Bearer",
    );
    expectInvalidResponse(
      () => reshapeAuth(withValue("auth-primary", "ok", false)),
      "ok",
      "The Fleet Fuel API sent a sign-in reply we cannot read: ok is not true",
    );
    expectInvalidResponse(
      () => reshapeAuth(withValue("auth-alternative", "scopes.1", 7)),
      "scopes.1",
      "The Fleet Fuel API sent a sign-in reply we cannot read: scopes.1 is not a string",
    );
  });
});

describe("reshapeAccount", () => {
  const customer = { id: "8c2f4e1a-5b3d-4f7a-9e6c-1d2b3a4c5e6f", name: "Prairie Freight Lines" };

  it("reads the primary nested shape with its totals", () => {
    const account = reshapeAccount(load("account-primary"));
    expect(account).toEqual({
      ...customer,
      code: "PFL",
      active: true,
      createdAt: null,
      totals30d: { transactions: 1043, gallons: "98765.432", amount: "376112.58", source: "upstream" },
    });
    expect(Account.parse(account)).toEqual(account);
  });

  it("gives totals30d null when the nested shape has no totals_30d", () => {
    expect(reshapeAccount(load("account-primary-no-totals")).totals30d).toBeNull();
  });

  it("normalizes totals sent as numbers", () => {
    const body = withValue("account-primary", "totals_30d", { transactions: 3, gallons: 250.5, amount: 964.2 });
    expect(reshapeAccount(body).totals30d).toEqual({
      transactions: 3,
      gallons: "250.500",
      amount: "964.20",
      source: "upstream",
    });
  });

  it("reads the alternative flat shape, without the withheld fee", () => {
    const account = reshapeAccount(load("account-alternative"));
    expect(account).toEqual({
      ...customer,
      code: null,
      active: true,
      createdAt: "2024-11-20T15:00:00.000Z",
      totals30d: null,
    });
    expect(Account.parse(account)).toEqual(account);
    expect(JSON.stringify(account)).not.toMatch(/fee|0\.085/);
  });

  it("reads the flat shape wrapped in data, converting created_at to UTC", () => {
    const account = reshapeAccount(load("account-alternative-wrapped"));
    expect(account).toEqual({
      ...customer,
      code: null,
      active: false,
      createdAt: "2024-11-20T15:00:00.000Z",
      totals30d: null,
    });
    expect(JSON.stringify(account)).not.toMatch(/fee|0\.085/);
  });

  it("accepts either spelling of the active flag in either shape", () => {
    const nested = withValue("account-primary", "customer", { ...customer, code: "PFL", is_active: false });
    expect(reshapeAccount(nested).active).toBe(false);
    const flat = withValue("account-alternative", "is_active", undefined);
    containerAt(flat, []).active = true;
    expect(reshapeAccount(flat).active).toBe(true);
  });

  it("names the missing field of the shape the reply resembles", () => {
    expectInvalidResponse(
      () => reshapeAccount({ ok: true }),
      "customer",
      "The Fleet Fuel API sent an account we cannot read: customer is missing",
    );
    expectInvalidResponse(
      () => reshapeAccount(withValue("account-primary", "customer.active", undefined)),
      "customer.active",
      "The Fleet Fuel API sent an account we cannot read: customer.active is missing",
    );
    expectInvalidResponse(
      () => reshapeAccount(withValue("account-alternative", "is_active", undefined)),
      "is_active",
      "The Fleet Fuel API sent an account we cannot read: is_active is missing",
    );
    expectInvalidResponse(
      () => reshapeAccount(withValue("account-alternative-wrapped", "data.created_at", "2024-11-20 15:00:00")),
      "data.created_at",
      "The Fleet Fuel API sent an account we cannot read: data.created_at is not a date and time with a time zone (Z or an offset)",
    );
    expectInvalidResponse(
      () => reshapeAccount(withValue("account-primary", "totals_30d.amount", "abc")),
      "totals_30d.amount",
      "The Fleet Fuel API sent an account we cannot read: totals_30d.amount is not a number or decimal string",
    );
  });
});

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

describe("reshapeStationPage", () => {
  const amarillo: Station = {
    id: "5e0d2b7c-1f4a-4c3e-8b9d-6a7f0e1d2c3b",
    locNum: "00312",
    name: "Pilot Travel Center #312",
    brand: "pilot",
    address: "7101 I-40 E",
    city: "Amarillo",
    state: "TX",
    lat: 35.1923,
    lng: -101.7584,
    price: "3.849",
    priceUpdatedAt: "2026-11-18T06:00:00.000Z",
  };

  it("reads the primary list (numbers)", () => {
    const page = reshapeStationPage(load("stations-primary"));
    expect(pageOf(Station).parse(page)).toEqual(page);
    expect(page).toMatchObject({ page: 1, limit: 2, total: 2511, pages: 1256 });
    expect(page.items[0]).toEqual(amarillo);
    expect(page.items[1]).toMatchObject({
      locNum: "00587",
      brand: "loves",
      price: "3.790",
      priceUpdatedAt: "2026-11-12T06:00:00.000Z",
    });
  });

  it("reads the alternative list (decimal strings, no ok, an offset)", () => {
    const page = reshapeStationPage(load("stations-alternative"));
    expect(pageOf(Station).parse(page)).toEqual(page);
    expect(page.items[0]).toEqual(amarillo);
    expect(page.items[1]).toMatchObject({
      locNum: "04411",
      brand: "other",
      price: "3.979",
      priceUpdatedAt: "2026-11-18T07:00:00.000Z",
    });
  });

  it("gives price and priceUpdatedAt null when the upstream sends none", () => {
    const body = withValue("stations-primary", "data.items.0.price", null);
    containerAt(body, ["data", "items", 0]).price_updated_at = undefined;
    expect(reshapeStationPage(body).items[0]).toMatchObject({ price: null, priceUpdatedAt: null });
  });

  it('refuses a numeric loc_num (its leading zeros would be lost) and a price of "abc"', () => {
    expectInvalidResponse(
      () => reshapeStationPage(withValue("stations-primary", "data.items.1.loc_num", 587)),
      "data.items.1.loc_num",
      "The Fleet Fuel API sent a station list we cannot read: data.items.1.loc_num is not a string",
    );
    expectInvalidResponse(
      () => reshapeStationPage(withValue("stations-alternative", "data.items.0.price", "abc")),
      "data.items.0.price",
      "The Fleet Fuel API sent a station list we cannot read: data.items.0.price is not a number or decimal string",
    );
    expectInvalidResponse(
      () => reshapeStationPage(withValue("stations-alternative", "data.items.0.lat", "north")),
      "data.items.0.lat",
      "The Fleet Fuel API sent a station list we cannot read: data.items.0.lat is not a number",
    );
  });
});

describe("reshapeStationDetail", () => {
  it("reads the primary detail: price, def_available, amenities, phone, zip", () => {
    const detail = reshapeStationDetail(load("station-detail-primary"));
    expect(detail).toEqual({
      id: "5e0d2b7c-1f4a-4c3e-8b9d-6a7f0e1d2c3b",
      locNum: "00312",
      name: "Pilot Travel Center #312",
      brand: "pilot",
      address: "7101 I-40 E",
      city: "Amarillo",
      state: "TX",
      lat: 35.1923,
      lng: -101.7584,
      price: "3.849",
      priceUpdatedAt: "2026-11-18T06:00:00.000Z",
      phone: "(806) 335-1090",
      zip: "79118",
      amenities: ["showers", "scales", "truck_parking", "def_lanes"],
      defAvailable: true,
      prices: { diesel: "3.849" },
      extra: {},
    });
    expect(StationDetail.parse(detail)).toEqual(detail);
  });

  it("reads the alternative detail: prices per product, DEF available from its price", () => {
    const detail = reshapeStationDetail(load("station-detail-alternative"));
    expect(detail).toMatchObject({
      price: "3.849",
      phone: "(806) 335-1090",
      zip: "79118",
      amenities: ["showers", "scales"],
      defAvailable: true,
      prices: { diesel: "3.849", unleaded: "3.159", def: "4.190" },
      extra: {},
    });
    expect(StationDetail.parse(detail)).toEqual(detail);
  });

  it("reads a bare alternative detail without price and with def: null", () => {
    const detail = reshapeStationDetail(load("station-detail-alternative-no-def"));
    expect(detail).toMatchObject({
      id: "c7b3e9d1-2a4f-4b6c-8e0d-9f1a2b3c4d5e",
      price: "3.979",
      phone: null,
      zip: "86004",
      amenities: [],
      defAvailable: false,
      prices: { diesel: "3.979", unleaded: "3.299", def: null },
      extra: {},
    });
    expect(StationDetail.parse(detail)).toEqual(detail);
  });

  it("does not guess DEF availability when nothing says", () => {
    const body = withValue("station-detail-primary", "data.def_available", undefined);
    expect(reshapeStationDetail(body).defAvailable).toBeNull();
    const noDefEntry = withValue("station-detail-alternative", "data.prices", { diesel: "3.849", unleaded: "3.159" });
    expect(reshapeStationDetail(noDefEntry).defAvailable).toBeNull();
  });

  it("gives empty prices and null price when the station has no price at all", () => {
    const body = withValue("station-detail-primary", "data.price", null);
    expect(reshapeStationDetail(body)).toMatchObject({ price: null, prices: {} });
  });

  it("keeps unknown fields in extra, without the withheld fee", () => {
    const body = withValue("station-detail-alternative", "data.hours", "24/7");
    containerAt(body, ["data"]).fee_deduction_per_gallon = "0.085";
    containerAt(body, ["data"]).operator = { name: "Pilot Co.", fee_deduction_per_gallon: 0.085 };
    const detail = reshapeStationDetail(body);
    expect(detail.extra).toEqual({ hours: "24/7", operator: { name: "Pilot Co." } });
    expect(JSON.stringify(detail)).not.toMatch(/fee_deduction|0\.085/);
  });

  it("names the offending field", () => {
    expectInvalidResponse(
      () => reshapeStationDetail(withValue("station-detail-alternative", "data.prices.unleaded", "n/a")),
      "data.prices.unleaded",
      "The Fleet Fuel API sent a station we cannot read: data.prices.unleaded is not a number or decimal string",
    );
    expectInvalidResponse(
      () => reshapeStationDetail(withValue("station-detail-primary", "data.amenities", "showers")),
      "data.amenities",
      "The Fleet Fuel API sent a station we cannot read: data.amenities is not a list",
    );
    expectInvalidResponse(
      () => reshapeStationDetail(withValue("station-detail-primary", "data.def_available", "yes")),
      "data.def_available",
      "The Fleet Fuel API sent a station we cannot read: data.def_available is not true or false",
    );
  });
});

describe("reshapeError", () => {
  it.each<[string, number, ReturnType<typeof reshapeError>]>([
    [
      "error-primary-scope-denied",
      403,
      {
        code: "scope_denied",
        message: "This API key lacks the read scope needed for GET /transactions.",
        scope: "read",
      },
    ],
    [
      "error-alternative-scope-denied",
      403,
      {
        code: "scope_denied",
        message: "This API key lacks the transactions scope needed for GET /transactions.",
        scope: "transactions",
      },
    ],
    [
      "error-primary-bad-request",
      400,
      { code: "bad_request", message: "limit must be between 1 and 200.", field: "limit" },
    ],
    [
      "error-alternative-bad-request",
      400,
      { code: "bad_request", message: "Unknown query parameter: search.", field: "search" },
    ],
    ["error-primary-unauthenticated", 401, { code: "unauthenticated", message: "Missing or invalid credentials." }],
    [
      "error-alternative-invalid-credentials",
      401,
      { code: "invalid_credentials", message: "Unknown key id or wrong secret." },
    ],
    ["error-primary-not-found", 404, { code: "not_found", message: "Transaction not found." }],
  ])("reads %s", (name, status, expected) => {
    expect(reshapeError(status, load(name))).toEqual(expected);
  });

  it("maps invalid_credentials whatever the status", () => {
    for (const status of [400, 401, 403, 500]) {
      expect(reshapeError(status, load("error-alternative-invalid-credentials")).code).toBe("invalid_credentials");
      expect(reshapeError(status, { ok: false, error: "invalid_credentials", message: "Unknown key id." }).code).toBe(
        "invalid_credentials",
      );
    }
  });

  const primaryBody = (code: string, message: string): unknown => ({ ok: false, error: code, message });
  const alternativeBody = (code: string, message: string): unknown => ({ error: { code, message } });
  const shapes = [
    ["primary", primaryBody],
    ["alternative", alternativeBody],
  ] as const;

  describe.each(shapes)("400 parameter names, %s body", (_shape, makeBody) => {
    it.each<[string, string | undefined]>([
      ["limit must be between 1 and 200.", "limit"],
      ["Unknown query parameter: q.", "q"],
      ["Unknown query parameter: search.", "search"],
      ["from must be an ISO date (YYYY-MM-DD).", "from"],
      ["from must not be after to.", "from"],
      ["from (2026-01-02) is after to (2026-01-01).", "from"],
      ["to must be an ISO 8601 datetime.", "to"],
      ["Repeated query parameter: page.", "page"],
      ["status must be one of completed, pending, failed.", "status"],
      ["`brand` is not a known chain code.", "brand"],
      ["Request body must be JSON.", undefined],
      ["Bad request.", undefined],
    ])("%j → %s", (message, field) => {
      const result = reshapeError(400, makeBody("bad_request", message));
      expect(result).toEqual(
        field === undefined ? { code: "bad_request", message } : { code: "bad_request", message, field },
      );
    });
  });

  describe.each(shapes)("403 scope names, %s body", (_shape, makeBody) => {
    it.each<[string, string | undefined]>([
      ["This API key lacks the read scope needed for GET /transactions.", "read"],
      ["This API key lacks the transactions scope.", "transactions"],
      ["This API key lacks the locations scope needed for GET /locations.", "locations"],
      ["Missing scope: account", "account"],
      ["Requires the `locations` scope.", "locations"],
      ["Forbidden.", undefined],
    ])("%j → %s", (message, scope) => {
      const result = reshapeError(403, makeBody("scope_denied", message));
      expect(result).toEqual(
        scope === undefined ? { code: "scope_denied", message } : { code: "scope_denied", message, scope },
      );
    });
  });

  it.each<[number, string]>([
    [400, "bad_request"],
    [401, "unauthenticated"],
    [403, "scope_denied"],
    [404, "not_found"],
    [409, "bad_request"],
    [429, "rate_limited"],
    [500, "server_error"],
    [502, "server_error"],
    [503, "server_error"],
  ])("falls back to the status for unknown bodies: %i → %s", (status, code) => {
    for (const body of [
      null,
      undefined,
      "<html>Bad gateway</html>",
      {},
      [],
      { error: 42 },
      { error: { message: "no code" } },
      { ok: false },
    ]) {
      const result = reshapeError(status, body);
      expect(result.code).toBe(code);
      expect(result.message.length).toBeGreaterThan(0);
      expect(result).not.toHaveProperty("field");
      expect(result).not.toHaveProperty("scope");
    }
  });

  it("falls back to the status for unknown codes, keeping the upstream's message", () => {
    expect(reshapeError(503, { ok: false, error: "maintenance", message: "Back at 02:00 UTC." })).toEqual({
      code: "server_error",
      message: "Back at 02:00 UTC.",
    });
    // Our own codes are not the upstream's to send.
    expect(reshapeError(404, { error: { code: "invalid_response", message: "x" } }).code).toBe("not_found");
  });

  it("uses a generic message when the upstream's is empty, and shortens a long one", () => {
    expect(reshapeError(429, { ok: false, error: "rate_limited", message: "  " }).message).toMatch(/budget/);
    expect(
      reshapeError(500, { ok: false, error: "server_error", message: "x".repeat(5000) }).message.length,
    ).toBeLessThanOrEqual(300);
  });

  it("honours a parameter or scope the body names itself", () => {
    expect(reshapeError(400, { error: { code: "bad_request", message: "Invalid.", field: "to" } }).field).toBe("to");
    expect(
      reshapeError(403, { ok: false, error: "scope_denied", message: "Forbidden.", scope: "locations" }).scope,
    ).toBe("locations");
  });

  it("never throws, even on a body that throws while being read", () => {
    const body = {};
    Object.defineProperty(body, "error", {
      enumerable: true,
      get: () => {
        throw new TypeError("boom");
      },
    });
    expect(reshapeError(500, body)).toEqual({
      code: "server_error",
      message: "The Fleet Fuel API failed on its side.",
    });
  });
});
