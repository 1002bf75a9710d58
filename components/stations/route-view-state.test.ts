import { describe, expect, it } from "vitest";

import { DEFAULT_TRUCK } from "@/lib/route";

import { readTruckDraft, truckToDraft } from "./route-truck";
import { DEFAULT_ROUTE_VIEW, MAX_VIA_POINTS, parseRouteView, routePoints, type RouteView } from "./route-view-state";
import { DEFAULT_VIEW, parseView, serializeView } from "./view-state";

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
      mpg: "Average MPG must be more than 0.",
      hourlyValue: "Value of a driver hour must be a number ($/h).",
    });
    expect(readTruckDraft({ ...truckToDraft(DEFAULT_TRUCK), reserveGallons: "150" }).errors).toEqual({
      reserveGallons: "The reserve must be less than the tank size.",
    });
    expect(readTruckDraft({ ...truckToDraft(DEFAULT_TRUCK), tankGallons: "-5" }).errors.tankGallons).toBe(
      "Tank size must be more than 0.",
    );
  });
});
