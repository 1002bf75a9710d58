import { describe, expect, it } from "vitest";

import type { Station } from "@/lib/model";

import { resolvePlace } from "./places";

const s = (over: Partial<Station>): Station => ({
  id: "1",
  locNum: "00012",
  name: "Pilot Travel Center #12",
  brand: "pilot",
  address: "",
  city: "Amarillo",
  state: "TX",
  lat: 35.2,
  lng: -101.8,
  price: "3.500",
  priceUpdatedAt: null,
  ...over,
});

describe("resolvePlace", () => {
  const stations = [
    s({ id: "a", lat: 35, lng: -101 }),
    s({ id: "b", lat: 36, lng: -102 }),
    s({ id: "c", city: "Tulsa", state: "OK", lat: 36.1, lng: -95.9 }),
  ];
  it("reads coordinates, a city with or without its state, and a state", () => {
    expect(resolvePlace("35.5, -101.5", stations)[0]?.point).toEqual({ lat: 35.5, lng: -101.5 });
    expect(resolvePlace("amarillo, tx", stations)).toEqual([
      { point: { lat: 35.5, lng: -101.5 }, label: "Amarillo, TX", stationCount: 2 },
    ]);
    expect(resolvePlace("Amarillo TX", stations).map((p) => p.label)).toEqual(["Amarillo, TX"]);
    expect(resolvePlace("tulsa", stations).map((p) => p.point)).toEqual([{ lat: 36.1, lng: -95.9 }]);
    expect(resolvePlace("OK", stations)).toEqual([{ point: { lat: 36.1, lng: -95.9 }, label: "OK", stationCount: 1 }]);
    expect(resolvePlace("Nowhere, ZZ", stations)).toEqual([]);
    expect(resolvePlace("  ", stations)).toEqual([]);
  });

  // The sandbox's catalog has these names in several states (sandbox/db/geo-data.ts); the coordinates are theirs.
  const springfields = [
    s({ id: "mo1", city: "Springfield", state: "MO", lat: 37.2, lng: -93.3 }),
    s({ id: "mo2", city: "Springfield", state: "MO", lat: 37.22, lng: -93.28 }),
    s({ id: "il", city: "Springfield", state: "IL", lat: 39.78, lng: -89.65 }),
    s({ id: "oh", city: "Springfield", state: "OH", lat: 39.92, lng: -83.81 }),
    s({ id: "ma", city: "Springfield", state: "MA", lat: 42.12, lng: -72.59 }),
    s({ id: "or", city: "Portland", state: "OR", lat: 45.47, lng: -122.6 }),
    s({ id: "me", city: "Portland", state: "ME", lat: 43.7, lng: -70.35 }),
    s({ id: "ga", city: "Columbus", state: "GA", lat: 32.5, lng: -84.92 }),
    s({ id: "coh", city: "Columbus", state: "OH", lat: 39.96, lng: -83.0 }),
    s({ id: "in", city: "Columbus", state: "IN", lat: 39.2, lng: -85.92 }),
    s({ id: "mo-other", city: "Joplin", state: "MO", lat: 37.08, lng: -94.51 }),
  ];

  it("offers one place per state for a city name several states have, each at that city's own stations", () => {
    const found = resolvePlace("springfield", springfields);
    expect(found.map((p) => p.label)).toEqual([
      "Springfield, IL",
      "Springfield, MA",
      "Springfield, MO",
      "Springfield, OH",
    ]);
    const mo = found.find((p) => p.label === "Springfield, MO");
    expect(mo?.point.lat).toBeCloseTo(37.21, 6);
    expect(mo?.point.lng).toBeCloseTo(-93.29, 6);
    expect(mo?.stationCount).toBe(2);
    expect(found.find((p) => p.label === "Springfield, IL")?.point).toEqual({ lat: 39.78, lng: -89.65 });
    expect(resolvePlace("Portland", springfields).map((p) => [p.label, p.point])).toEqual([
      ["Portland, ME", { lat: 43.7, lng: -70.35 }],
      ["Portland, OR", { lat: 45.47, lng: -122.6 }],
    ]);
    expect(resolvePlace("COLUMBUS", springfields).map((p) => p.label)).toEqual([
      "Columbus, GA",
      "Columbus, IN",
      "Columbus, OH",
    ]);
  });

  it("with the state given, is that one city, whatever else the name means", () => {
    const mo = resolvePlace("Springfield, MO", springfields);
    expect(mo.map((p) => [p.label, p.stationCount])).toEqual([["Springfield, MO", 2]]);
    expect(mo[0]?.point.lat).toBeCloseTo(37.21, 6);
    expect(resolvePlace("portland or", springfields).map((p) => p.point)).toEqual([{ lat: 45.47, lng: -122.6 }]);
    expect(resolvePlace("Columbus, TX", springfields)).toEqual([]);
  });
});
