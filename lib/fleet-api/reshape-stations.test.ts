import { describe, expect, it } from "vitest";

import { pageOf, Station, StationDetail } from "../model";
import { containerAt, expectInvalidResponse, load, withValue } from "./fixtures/fixture-body";
import { reshapeStationDetail, reshapeStationPage } from "./reshape";

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
