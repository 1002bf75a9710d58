import { readFileSync } from "node:fs";

import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { describe, expect, it } from "vitest";

import { outlineBatches, OUTLINES_PER_BATCH } from "./outline-batches";

describe("outlineBatches", () => {
  it("splits the basemap's 56 outlines into small batches, every outline once and in order", () => {
    const topology = JSON.parse(readFileSync("public/basemap/us-states-10m.json", "utf8")) as Topology<{
      states: GeometryCollection;
    }>;
    const outlines = feature(topology, topology.objects.states);
    const batches = outlineBatches(outlines);
    expect(batches.length).toBe(Math.ceil(56 / OUTLINES_PER_BATCH));
    expect(batches.every((b) => b.features.length <= OUTLINES_PER_BATCH)).toBe(true);
    expect(batches.flatMap((b) => b.features)).toEqual(outlines.features);
  });

  it("has no batch while the outlines are not there", () => {
    expect(outlineBatches(null)).toEqual([]);
  });
});
