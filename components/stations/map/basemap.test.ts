import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

import { describe, expect, it } from "vitest";

import { US_STATE_CODES, US_STATE_FIPS } from "@/lib/model/us-states";

// The map fetches the state outlines from public/basemap/ (a static file, compressed by the server, outside the JS
// chunk). It is a copy of the us-atlas package's file: after an upgrade of us-atlas this fails until it is copied again.
const require = createRequire(import.meta.url);

describe("the basemap file served to the map", () => {
  it("is us-atlas's states-10m.json, byte for byte, with the states object the map reads", () => {
    const served = readFileSync("public/basemap/us-states-10m.json");
    const packaged = readFileSync(require.resolve("us-atlas/states-10m.json"));
    expect(served.equals(packaged)).toBe(true);
    const topology = JSON.parse(served.toString("utf8")) as {
      type: string;
      objects: { states?: { geometries: unknown[] } };
    };
    expect(topology.type).toBe("Topology");
    expect(topology.objects.states?.geometries.length).toBe(56);
  });

  it("has an outline for every state the state filter offers (the map zooms to it by its FIPS id)", () => {
    const topology = JSON.parse(readFileSync("public/basemap/us-states-10m.json", "utf8")) as {
      objects: { states: { geometries: { id: string; properties: { name: string } }[] } };
    };
    const ids = new Set(topology.objects.states.geometries.map((g) => g.id));
    for (const code of US_STATE_CODES) expect(ids.has(US_STATE_FIPS[code]), code).toBe(true);
    expect(topology.objects.states.geometries.find((g) => g.id === US_STATE_FIPS.TX)?.properties.name).toBe("Texas");
    expect(topology.objects.states.geometries.find((g) => g.id === US_STATE_FIPS.DC)?.properties.name).toBe(
      "District of Columbia",
    );
  });
});
