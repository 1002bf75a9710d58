import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { corridorCandidates, DEFAULT_TRUCK, routePolyline, routeThrough } from "@/lib/route";
import { priced } from "@/lib/route/test-stations";

import { DEFAULT_VIEW, parseView, serializeView } from "../view-state";
import { rankAndPlan, routeOptionsOf } from "./route-data";
import { readTruckDraft, truckToDraft } from "./route-truck";
import {
  DEFAULT_ROUTE_VIEW,
  MAX_VIA_POINTS,
  parseRouteView,
  routePoints,
  type RouteView,
  withViaAt,
} from "./route-view-state";

const DALLAS = { point: { lat: 32.7767, lng: -96.797 }, label: "Dallas, TX" };
const AMARILLO = { point: { lat: 35.222, lng: -101.8313 }, label: "Amarillo, TX" };
const DENVER = { point: { lat: 39.7392, lng: -104.9903 }, label: "Denver, CO" };

describe("the Route mode in the URL", () => {
  it("round-trips mode, points, via points, corridor, circuity and product; the truck stays out by default", () => {
    const route: RouteView = {
      ...DEFAULT_ROUTE_VIEW,
      from: DALLAS,
      via: [AMARILLO],
      to: DENVER,
      corridor: 15,
      circuity: 1.4,
    };
    const view = { ...DEFAULT_VIEW, mode: "route" as const, product: "def" as const, route };
    const query = serializeView(view);
    const params = new URLSearchParams(query);
    expect(params.get("mode")).toBe("route");
    expect(params.get("from")).toBe("32.7767,-96.7970");
    expect(params.get("via")).toBe("35.2220,-101.8313");
    expect(params.get("toPlace")).toBe("Denver, CO");
    expect(params.get("tank")).toBeNull();
    expect(parseView(params)).toEqual(view);
    expect(routePoints(route)).toEqual([DALLAS.point, AMARILLO.point, DENVER.point]);
  });

  it("carries the truck only when it was put in the link, and reads it back", () => {
    const truck = { tankGallons: 200, fuelNowGallons: 50, mpg: 7, reserveGallons: 25, hourlyValue: 40 };
    const view = {
      ...DEFAULT_VIEW,
      mode: "route" as const,
      route: { ...DEFAULT_ROUTE_VIEW, from: DALLAS, to: DENVER, truck },
    };
    const params = new URLSearchParams(serializeView(view));
    expect(params.get("tank")).toBe("200");
    expect(params.get("hour")).toBe("40");
    expect(parseView(params).route.truck).toEqual(truck);
  });

  it("ignores what it cannot read: bad points, out-of-range corridor or circuity, an impossible truck", () => {
    const parsed = parseRouteView(
      new URLSearchParams(
        "from=100,200&to=abc&via=1,2|x|3,4&corridor=500&circuity=0.5&tank=100&fuel=150&mpg=6&reserve=10&hour=30",
      ),
    );
    expect(parsed.from).toBeNull();
    expect(parsed.to).toBeNull();
    expect(parsed.via.map((v) => v.point)).toEqual([
      { lat: 1, lng: 2 },
      { lat: 3, lng: 4 },
    ]);
    expect(parsed.corridor).toBe(DEFAULT_ROUTE_VIEW.corridor);
    expect(parsed.circuity).toBe(DEFAULT_ROUTE_VIEW.circuity);
    // 150 gallons now in a 100-gallon tank: not a truck; the browser's own is used.
    expect(parsed.truck).toBeNull();
    expect(routePoints(parsed)).toBeNull();
  });

  it("says what of the link it could not use, in sentences a person can act on", () => {
    const parsed = parseRouteView(
      new URLSearchParams("from=abc&to=35,-101&corridor=500&circuity=x&tank=100&fuel=150&mpg=6&reserve=10&hour=30"),
    );
    expect(parsed.linkProblems).toEqual([
      'The link\'s start (from) ("abc") is not a latitude,longitude pair; it was left out.',
      "The link's corridor (500 mi) is out of range 1–50; using 10.",
      'The link\'s circuity ("x") is not a number; using 1.25.',
      "The link's truck was ignored: Gallons now cannot exceed the tank size.",
    ]);
    // A partial truck (only the tank) is no truck either, and says which fields are missing.
    expect(parseRouteView(new URLSearchParams("tank=100")).linkProblems[0]).toMatch(
      /^The link's truck was ignored: Gallons now must be a number \(gal\)\./,
    );
    expect(parseRouteView(new URLSearchParams("from=32,-97&to=35,-101")).linkProblems).toEqual([]);
  });

  it("keeps each via point's own label when the list has an empty entry", () => {
    const parsed = parseRouteView(new URLSearchParams("via=1,2||3,4&viaPlace=One|Skipped|Three"));
    expect(parsed.via.map((v) => v.label)).toEqual(["One", "Three"]);
  });

  it("refuses a truck under 1 gal of tank or 1 mpg (effective prices would run to $1e300)", () => {
    const tiny = parseRouteView(new URLSearchParams("tank=1e-300&fuel=0&mpg=30&reserve=0&hour=0"));
    expect(tiny.truck).toBeNull();
    expect(tiny.linkProblems).toEqual(["The link's truck was ignored: Tank size must be at least 1 gal."]);
    const crawl = readTruckDraft({ ...truckToDraft(DEFAULT_TRUCK), mpg: "1e-300" });
    expect(crawl.errors.mpg).toBe("Average MPG must be at least 1 mpg.");
  });

  it("keeps at most MAX_VIA_POINTS via points and labels points without one by their coordinates", () => {
    const via = Array.from({ length: MAX_VIA_POINTS + 2 }, (_, i) => `${String(30 + i)},-100`).join("|");
    const parsed = parseRouteView(new URLSearchParams(`via=${via}&from=32.5,-97`));
    expect(parsed.via).toHaveLength(MAX_VIA_POINTS);
    expect(parsed.from?.label).toBe("32.5000, -97.0000");
  });

  it("defaults: no mode, no route parameters", () => {
    expect(serializeView({ ...DEFAULT_VIEW, route: DEFAULT_ROUTE_VIEW })).toBe("");
    expect(parseView(new URLSearchParams("")).mode).toBe("near");
  });
});

describe("the truck as typed", () => {
  it("accepts the defaults", () => {
    expect(readTruckDraft(truckToDraft(DEFAULT_TRUCK))).toEqual({ truck: DEFAULT_TRUCK, errors: {} });
  });

  it("says what to fix, field by field, in words a person can act on", () => {
    const draft = { ...truckToDraft(DEFAULT_TRUCK), fuelNowGallons: "200", mpg: "0", hourlyValue: "x" };
    const { truck, errors } = readTruckDraft(draft);
    expect(truck).toBeNull();
    expect(errors).toEqual({
      fuelNowGallons: "Gallons now cannot exceed the tank size.",
      mpg: "Average MPG must be at least 1 mpg.",
      hourlyValue: "Value of a driver hour must be a number ($/h).",
    });
    expect(readTruckDraft({ ...truckToDraft(DEFAULT_TRUCK), reserveGallons: "150" }).errors).toEqual({
      reserveGallons: "The reserve must be less than the tank size.",
    });
    expect(readTruckDraft({ ...truckToDraft(DEFAULT_TRUCK), tankGallons: "-5" }).errors.tankGallons).toBe(
      "Tank size cannot be negative.",
    );
  });
});

describe("hostile links (the review's fuzz)", () => {
  const catalog = Array.from({ length: 300 }, (_, i) =>
    priced(`L${String(i)}`, 25 + (i % 20), -120 + Math.floor(i / 20) * 3.5, 3 + (i % 7) / 10),
  );
  const num = fc.oneof(
    fc.double({ noNaN: false }),
    fc.constantFrom(0, -0, 1e-300, 1e300, 90, -90, 180, -180, 0.5, 500, 30),
  );
  const val = fc.oneof(
    fc.string(),
    num.map(String),
    fc.tuple(num, num).map(([a, b]) => `${String(a)},${String(b)}`),
    fc.constantFrom("1e-300", "0x10", " 5 ", "Infinity", "-0"),
  );
  const link = fc.record({
    from: val,
    to: val,
    via: fc.array(val, { maxLength: 7 }).map((a) => a.join("|")),
    corridor: val,
    circuity: val,
    tank: val,
    fuel: val,
    mpg: val,
    reserve: val,
    hour: val,
  });

  it("never crash the route computation, and every effective price is finite or Infinity (nothing to buy)", () => {
    fc.assert(
      fc.property(link, (p) => {
        const view = parseRouteView(new URLSearchParams(Object.entries(p)));
        const points = routePoints(view);
        if (points === null) return;
        const route = routeThrough(points);
        routePolyline(route);
        const options = routeOptionsOf(view);
        const cands = corridorCandidates(route, catalog, options);
        const result = rankAndPlan(route, cands, view.truck ?? DEFAULT_TRUCK, options);
        expect(result.plan).not.toBeNull();
        for (const c of result.ranked) expect(c.effectivePrice < 1e6 || c.effectivePrice === Infinity).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("the plan's suggested via point", () => {
  it("goes in at its index among the via points, its label cleaned like a link's", () => {
    const a = { point: { lat: 35.2, lng: -101.8 }, label: "Amarillo, TX" };
    const route: RouteView = {
      ...DEFAULT_ROUTE_VIEW,
      from: DALLAS,
      to: { point: { lat: 39.7, lng: -105 }, label: "Denver, CO" },
      via: [a],
    };
    const first = withViaAt(route, { point: { lat: 33.5, lng: -99 }, label: "Pilot | Wichita Falls, TX", index: 0 });
    expect(first.via).toEqual([{ point: { lat: 33.5, lng: -99 }, label: "Pilot   Wichita Falls, TX" }, a]);
    const last = withViaAt(route, { point: { lat: 37, lng: -103 }, label: "Station B, Town, KS", index: 1 });
    expect(routePoints(last)).toEqual([DALLAS.point, a.point, { lat: 37, lng: -103 }, { lat: 39.7, lng: -105 }]);
  });
});
