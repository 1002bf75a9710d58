import { describe, expect, it } from "vitest";

import type { Station } from "@/lib/model";

import { DEFAULT_ROUTE_VIEW } from "./route-planner/route-view-state";
import {
  DEFAULT_VIEW,
  filterStations,
  parseView,
  serializeView,
  stationsInView,
  stationsViewProblems,
} from "./view-state";

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

describe("parseView / serializeView", () => {
  it("round-trips a full view and leaves defaults out", () => {
    const view = {
      brand: "loves",
      state: "TX",
      search: "amarillo",
      near: { lat: 35.2221, lng: -101.8313 },
      nearLabel: "Amarillo, TX",
      radius: 100,
      count: 20,
      product: "def",
      selected: "3f2b8c1e-7d4a-4e9b-9c1f-0a2b3c4d5e6f",
      scale: "view",
      mode: "near",
      route: DEFAULT_ROUTE_VIEW,
    } as const;
    const query = serializeView(view);
    expect(parseView(new URLSearchParams(query))).toEqual(view);
    expect(serializeView(DEFAULT_VIEW)).toBe("");
  });

  it("ignores what it cannot read", () => {
    expect(
      parseView(
        new URLSearchParams(
          "brand=%3Cx%3E&state=ZZ&radius=7&n=3&near=100,200&place=x&product=gasoline&station=%3Cscript%3E&scale=local",
        ),
      ),
    ).toEqual(DEFAULT_VIEW);
  });

  it("reads the product in any case, keeps diesel (the catalog's price) out of the URL, and ignores unknown products", () => {
    expect(parseView(new URLSearchParams("product=UNLEADED")).product).toBe("unleaded");
    expect(parseView(new URLSearchParams("product=def")).product).toBe("def");
    expect(parseView(new URLSearchParams("product=diesel")).product).toBe("diesel");
    expect(parseView(new URLSearchParams(`station=${"a".repeat(65)}`)).selected).toBeNull();
    expect(parseView(new URLSearchParams("product=premium")).product).toBe("diesel");
    expect(parseView(new URLSearchParams("product=")).product).toBe("diesel");
    expect(serializeView({ ...DEFAULT_VIEW, product: "diesel" })).toBe("");
    expect(serializeView({ ...DEFAULT_VIEW, product: "unleaded" })).toBe("product=unleaded");
    // The other filters are untouched by the product.
    expect(parseView(new URLSearchParams("brand=pilot&product=def&radius=25"))).toEqual({
      ...DEFAULT_VIEW,
      brand: "pilot",
      radius: 25,
      product: "def",
    });
  });

  it("keeps the selected station as its own parameter, whatever else the view says", () => {
    expect(serializeView({ ...DEFAULT_VIEW, selected: "st-42" })).toBe("station=st-42");
    expect(parseView(new URLSearchParams("station=st-42&brand=pilot"))).toEqual({
      ...DEFAULT_VIEW,
      brand: "pilot",
      selected: "st-42",
    });
  });
});

describe("stationsViewProblems (issue 26: a link's unusable values are said, not ignored)", () => {
  const problems = (query: string) => stationsViewProblems(new URLSearchParams(query));
  it("says nothing of a link the page wrote", () => {
    expect(problems("near=35.2220,-101.8313&radius=50&n=10&state=TX&product=def&scale=view&mode=route")).toEqual([]);
    expect(problems("")).toEqual([]);
  });
  it("says which values were not used and what is used instead", () => {
    expect(problems("near=999,999&radius=-3")).toEqual([
      "“999,999” is not a place on the map (latitude,longitude such as 35.22,-101.83); no place is chosen.",
      "“-3” is not a radius offered (10, 25, 50, 100, 250 mi); using 50 mi.",
    ]);
    expect(problems("state=ZZ&n=7&mode=fly")).toEqual([
      "“7” is not a number of results offered (5, 10, 20, 50); showing 10.",
      "“ZZ” is not a US state code; every state is shown.",
      "“fly” is not a mode (near or route); showing stations near a place.",
    ]);
  });
});

describe("the colour scale in the URL", () => {
  it("keeps the national scale out of the URL and reads scale=view", () => {
    expect(serializeView({ ...DEFAULT_VIEW, scale: "view" })).toBe("scale=view");
    expect(serializeView({ ...DEFAULT_VIEW, scale: "all" })).toBe("");
    expect(parseView(new URLSearchParams("scale=VIEW")).scale).toBe("view");
    expect(parseView(new URLSearchParams("scale=nearby")).scale).toBe("all");
  });
  it("stationsInView keeps the stations inside the view's edges", () => {
    const inside = s({ id: "in", lat: 35, lng: -101 });
    const outside = s({ id: "out", lat: 40, lng: -101 });
    expect(
      stationsInView([inside, outside], { south: 34, west: -102, north: 36, east: -100 }).map((x) => x.id),
    ).toEqual(["in"]);
  });
});

describe("filterStations", () => {
  const stations = [
    s({ id: "a" }),
    s({ id: "b", brand: "loves", name: "Love's #7", city: "Dallas", locNum: "00777" }),
    s({ id: "c", state: "OK", city: "Tulsa", name: "Petro Tulsa", brand: "petro" }),
  ];
  it("filters by brand, state and a search of name, city or loc number", () => {
    expect(filterStations(stations, { brand: "loves", state: null, search: "" }).map((x) => x.id)).toEqual(["b"]);
    expect(filterStations(stations, { brand: null, state: "TX", search: "" }).map((x) => x.id)).toEqual(["a", "b"]);
    expect(filterStations(stations, { brand: null, state: null, search: "TULSA" }).map((x) => x.id)).toEqual(["c"]);
    expect(filterStations(stations, { brand: null, state: null, search: "777" }).map((x) => x.id)).toEqual(["b"]);
  });
});
