import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { distanceMiles, EARTH_RADIUS_MILES, type LatLng } from "./geo";
import { positionOnRoute, routePolyline, routeThrough } from "./path";

const DALLAS: LatLng = { lat: 32.7767, lng: -96.797 };
const DENVER: LatLng = { lat: 39.7392, lng: -104.9903 };
const AMARILLO: LatLng = { lat: 35.222, lng: -101.8313 };
const KANSAS_CITY: LatLng = { lat: 39.0997, lng: -94.5786 };

/** Distance to the densified path: the minimum over points `step` miles apart (an upper bound of the exact one). */
function sampledOff(points: readonly LatLng[], p: LatLng): number {
  let best = Infinity;
  for (const q of points) best = Math.min(best, distanceMiles(p, q));
  return best;
}

describe("routeThrough", () => {
  it("measures Dallas → Denver as the great circle (≈ 663 mi)", () => {
    const route = routeThrough([DALLAS, DENVER]);
    expect(route.legs).toHaveLength(1);
    expect(route.totalMiles).toBeGreaterThan(660);
    expect(route.totalMiles).toBeLessThan(666);
    expect(route.totalMiles).toBeCloseTo(distanceMiles(DALLAS, DENVER), 9);
  });

  it("chains via points: each leg starts where the previous ended", () => {
    const route = routeThrough([DALLAS, AMARILLO, DENVER]);
    expect(route.legs.map((l) => l.startMiles)).toEqual([0, distanceMiles(DALLAS, AMARILLO)]);
    expect(route.totalMiles).toBeCloseTo(distanceMiles(DALLAS, AMARILLO) + distanceMiles(AMARILLO, DENVER), 9);
    // A via off the straight line makes the route longer than the direct one.
    expect(route.totalMiles).toBeGreaterThan(distanceMiles(DALLAS, DENVER));
  });

  it("refuses fewer than two points and coordinates off the globe", () => {
    expect(() => routeThrough([DALLAS])).toThrow(/at least two points/);
    expect(() => routeThrough([DALLAS, { lat: 91, lng: 0 }])).toThrow(/route point 2/);
    expect(() => routeThrough([DALLAS, { lat: Number.NaN, lng: 0 }])).toThrow(RangeError);
  });
});

describe("routePolyline", () => {
  it("densifies each leg along its great circle, ends included, no point twice at a via", () => {
    const route = routeThrough([DALLAS, AMARILLO, DENVER]);
    const line = routePolyline(route, 10);
    expect(line[0]).toEqual(DALLAS);
    expect(line.at(-1)).toEqual(DENVER);
    expect(line.filter((p) => p.lat === AMARILLO.lat && p.lng === AMARILLO.lng)).toHaveLength(1);
    for (let i = 1; i < line.length; i++) {
      const prev = line[i - 1];
      const here = line[i];
      if (!prev || !here) throw new Error("no point");
      expect(distanceMiles(prev, here)).toBeLessThanOrEqual(10 + 1e-9);
      // Every drawn point lies on the path.
      expect(positionOnRoute(route, here).offMiles).toBeLessThan(1e-6);
    }
  });

  it("bulges north of the straight lat/lng line on a long east–west leg (it is a great circle)", () => {
    const seattle = { lat: 47.6062, lng: -122.3321 };
    const boston = { lat: 42.3601, lng: -71.0589 };
    const line = routePolyline(routeThrough([seattle, boston]), 50);
    expect(Math.max(...line.map((p) => p.lat))).toBeGreaterThan(seattle.lat + 0.5);
  });
});

describe("positionOnRoute", () => {
  const route = routeThrough([DALLAS, DENVER]);

  it("puts a point on the path at 0 miles off, at its distance from the start", () => {
    const mid = routePolyline(route, 1000)[0] ?? DALLAS;
    expect(positionOnRoute(route, mid).offMiles).toBeLessThan(1e-9);
    const line = routePolyline(route, 50);
    const p = line[5] ?? DALLAS;
    const pos = positionOnRoute(route, p);
    expect(pos.offMiles).toBeLessThan(1e-6);
    expect(pos.alongMiles).toBeCloseTo(distanceMiles(DALLAS, p), 6);
  });

  it("gives the same distance off to two points placed symmetrically about the path", () => {
    // On a meridian, points at equal longitude offsets either side are symmetric about the path.
    const meridian = routeThrough([
      { lat: 30, lng: -100 },
      { lat: 40, lng: -100 },
    ]);
    const west = positionOnRoute(meridian, { lat: 35, lng: -100.1 });
    const east = positionOnRoute(meridian, { lat: 35, lng: -99.9 });
    expect(west.offMiles).toBeCloseTo(east.offMiles, 9);
    expect(west.alongMiles).toBeCloseTo(east.alongMiles, 9);
    // 0.1° of longitude at 35° N: ≈ 5.66 mi, and the foot is a hair north of 35° (a great circle, not a parallel).
    expect(west.offMiles).toBeCloseTo((0.1 * Math.PI * EARTH_RADIUS_MILES * Math.cos((35 * Math.PI) / 180)) / 180, 2);
  });

  it("measures the distance to the nearer end when the foot falls beyond a leg's end (clamped)", () => {
    const beforeDallas = { lat: 31.5, lng: -95.5 };
    const pastDenver = { lat: 41.5, lng: -106.5 };
    const before = positionOnRoute(route, beforeDallas);
    expect(before.alongMiles).toBe(0);
    expect(before.offMiles).toBeCloseTo(distanceMiles(DALLAS, beforeDallas), 9);
    const past = positionOnRoute(route, pastDenver);
    expect(past.alongMiles).toBeCloseTo(route.totalMiles, 9);
    expect(past.offMiles).toBeCloseTo(distanceMiles(DENVER, pastDenver), 9);
  });

  it("takes the nearest leg of a route through a via point", () => {
    const via = routeThrough([DALLAS, KANSAS_CITY, DENVER]);
    const topeka = { lat: 39.0473, lng: -95.6752 };
    const pos = positionOnRoute(via, topeka);
    // Topeka lies beside the second leg: its position is the one on that leg alone, shifted by the first leg.
    const second = positionOnRoute(routeThrough([KANSAS_CITY, DENVER]), topeka);
    expect(pos.offMiles).toBeCloseTo(second.offMiles, 9);
    expect(pos.alongMiles).toBeCloseTo(distanceMiles(DALLAS, KANSAS_CITY) + second.alongMiles, 6);
    expect(pos.offMiles).toBeLessThan(positionOnRoute(routeThrough([DALLAS, KANSAS_CITY]), topeka).offMiles);
    // The via point itself: on the path, at the end of the first leg.
    const at = positionOnRoute(via, KANSAS_CITY);
    expect(at.offMiles).toBeLessThan(1e-6);
    expect(at.alongMiles).toBeCloseTo(distanceMiles(DALLAS, KANSAS_CITY), 6);
  });

  it("handles a route whose two points are one (a zero-length leg)", () => {
    const still = routeThrough([DALLAS, DALLAS]);
    expect(still.totalMiles).toBe(0);
    expect(positionOnRoute(still, DENVER).offMiles).toBeCloseTo(distanceMiles(DALLAS, DENVER), 6);
  });

  it("equals the minimum distance to a dense sample of the path, within the sampling's tolerance (property)", () => {
    // Continental US, no antimeridian: routes of 1–3 legs, points anywhere in or around the country.
    const usPoint = fc.record({
      lat: fc.double({ min: 25, max: 49, noNaN: true }),
      lng: fc.double({ min: -124, max: -67, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(usPoint, { minLength: 2, maxLength: 4 }), usPoint, (points, p) => {
        const r = routeThrough(points);
        const step = 0.5;
        const sampled = sampledOff(routePolyline(r, step), p);
        const exact = positionOnRoute(r, p).offMiles;
        // The exact distance is never above the sample's, and at most half a step (plus the bulge) below it.
        expect(exact).toBeLessThanOrEqual(sampled + 1e-6);
        expect(sampled - exact).toBeLessThanOrEqual(step / 2 + 0.01);
      }),
      { numRuns: 200 },
    );
  });
});
