import { describe, expect, it } from "vitest";

import { TransactionDetail } from "../model";
import { expectInvalidResponse, load, withValue } from "./fixtures/fixture-body";
import { delgado, firstTransaction, pilot } from "./fixtures/transaction-models";
import { reshapeTransactionDetail } from "./reshape";

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
