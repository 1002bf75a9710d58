import { describe, expect, it } from "vitest";

import { CITIES, INTERSTATES, STATE_BOUNDS, STATES } from "./geo-data";
import { haversineKm } from "./geography";

describe("geo-data tables", () => {
  it("every city and waypoint lies inside its state's bounding box", () => {
    for (const c of CITIES) {
      const box = STATE_BOUNDS[c.state];
      expect(
        c.lat >= box.minLat && c.lat <= box.maxLat && c.lng >= box.minLng && c.lng <= box.maxLng,
        `${c.name}, ${c.state}`,
      ).toBe(true);
    }
    for (const route of INTERSTATES) {
      for (const p of route.points) {
        if (p.kind !== "place") continue;
        const box = STATE_BOUNDS[p.state];
        expect(
          p.lat >= box.minLat && p.lat <= box.maxLat && p.lng >= box.minLng && p.lng <= box.maxLng,
          `${route.name} ${p.name}, ${p.state}`,
        ).toBe(true);
      }
    }
  });

  it("covers every state with cities and has the major interstates", () => {
    for (const state of STATES)
      expect(
        CITIES.some((c) => c.state === state),
        state,
      ).toBe(true);
    const names = INTERSTATES.map((r) => r.name);
    for (const n of [5, 10, 15, 20, 25, 35, 40, 44, 55, 64, 65, 70, 75, 77, 80, 81, 84, 85, 90, 94, 95])
      expect(names).toContain(`I-${String(n)}`);
  });

  it("interstate segments are short, and state-line markers sit between places of different states", () => {
    for (const route of INTERSTATES) {
      route.points.forEach((p, i) => {
        const next = route.points[i + 1];
        if (!next) return;
        const skipped = p.kind === "place" && p.skipNext;
        if (!skipped)
          expect(haversineKm(p.lat, p.lng, next.lat, next.lng), `${route.name} #${String(i)}`).toBeLessThan(135);
        if (p.kind === "line") {
          const prev = route.points[i - 1];
          expect(
            prev?.kind === "place" && next.kind === "place" && prev.state !== next.state,
            `${route.name} line #${String(i)}`,
          ).toBe(true);
        }
        if (p.kind === "place" && next.kind === "place" && p.state !== next.state)
          expect(skipped, `${route.name} ${p.name} -> ${next.name}`).toBe(true);
      });
    }
  });
});
