import { readFileSync } from "node:fs";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { describe, expect, it } from "vitest";
import { batchFeatures, countCoordinates } from "./basemap-batches";

const topology = JSON.parse(readFileSync("public/basemap/us-states-10m.json", "utf8")) as Topology<{
  states: GeometryCollection;
}>;
const outlines = feature(topology, topology.objects.states);

describe("the state outlines handed to Leaflet in batches", () => {
  it("keeps every feature once, in order, in batches of about the size asked", () => {
    const batches = batchFeatures(outlines, 2_000);
    expect(batches.length).toBeGreaterThan(4);
    expect(batches.flatMap((b) => b.features)).toEqual(outlines.features);
    for (const batch of batches) {
      const size = batch.features.reduce(
        (n, f) => n + (f.geometry.type === "GeometryCollection" ? 0 : countCoordinates(f.geometry.coordinates)),
        0,
      );
      // Only a batch of one feature bigger than the limit by itself may pass it.
      if (batch.features.length > 1) expect(size).toBeLessThanOrEqual(2_000);
    }
  });

  it("counts the coordinates of nested rings", () => {
    expect(
      countCoordinates([
        [
          [0, 0],
          [1, 1],
          [2, 2],
        ],
        [[3, 3]],
      ]),
    ).toBe(4);
    expect(countCoordinates([1, 2])).toBe(1);
  });
});
