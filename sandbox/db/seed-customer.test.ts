import { describe, expect, it } from "vitest";

import { nearestStations } from "./seed-customer";

const at = (id: number, lat: number, lng: number) => ({ id, seed: { lat, lng } });

describe("nearestStations", () => {
  it("gives the k nearest, nearest first, equal distances in catalog order", () => {
    const stations = [at(1, 3, 0), at(2, 1, 0), at(3, 0, 1), at(4, 2, 0), at(5, -1, 0), at(6, 10, 0)];
    // Distances from (0, 0): 2, 3 and 5 are at 1 (catalog order kept), then 4 at 2, then 1 at 3.
    expect(nearestStations(stations, { lat: 0, lng: 0 }, 4).map((s) => s.id)).toEqual([2, 3, 5, 4]);
  });

  it("matches a stable sort of the whole catalog by distance", () => {
    const stations = Array.from({ length: 300 }, (_, i) => at(i, 30 + ((i * 37) % 17) / 3, -90 + ((i * 53) % 23) / 4));
    const home = { lat: 32, lng: -87 };
    const cos = Math.cos((home.lat * Math.PI) / 180);
    const d = (s: (typeof stations)[number]) => (s.seed.lat - home.lat) ** 2 + ((s.seed.lng - home.lng) * cos) ** 2;
    const sorted = [...stations].sort((a, b) => d(a) - d(b)).slice(0, 25);
    expect(nearestStations(stations, home, 25)).toEqual(sorted);
  });
});
