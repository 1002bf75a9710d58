import { describe, expect, it } from "vitest";

import type { Station } from "./station";
import { filterStations, matchesStation } from "./station-filter";

const station = (over: Partial<Station>): Station => ({
  id: "s1",
  locNum: "PF-0101",
  name: "Pilot Travel Center #101",
  brand: "pilot",
  address: "1 Main St",
  city: "Amarillo",
  state: "TX",
  lat: 35.2,
  lng: -101.8,
  price: "3.459",
  priceUpdatedAt: null,
  ...over,
});

describe("the station filter (one rule for the BFF and the map page)", () => {
  const stations = [
    station({}),
    station({ id: "s2", brand: "loves", name: "Love's #7", city: "Tulsa", state: "OK", locNum: "LV-0007" }),
  ];

  it("matches brand and state exactly, and search as a case-insensitive substring of name, city or loc number", () => {
    expect(filterStations(stations, { brand: "loves" }).map((s) => s.id)).toEqual(["s2"]);
    expect(filterStations(stations, { state: "TX" }).map((s) => s.id)).toEqual(["s1"]);
    expect(filterStations(stations, { search: "tulSA" }).map((s) => s.id)).toEqual(["s2"]);
    expect(filterStations(stations, { search: "pf-01" }).map((s) => s.id)).toEqual(["s1"]);
    expect(filterStations(stations, { search: "#" }).map((s) => s.id)).toEqual(["s1", "s2"]);
    expect(matchesStation(station({}), { brand: "pilot", state: "OK" })).toBe(false);
  });

  it("treats absent filters alike (the BFF's undefined, the page's null and empty search), keeping the same array", () => {
    expect(filterStations(stations, {})).toBe(stations);
    expect(filterStations(stations, { brand: null, state: null, search: "" })).toBe(stations);
  });
});
