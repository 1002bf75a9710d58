import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// The map fetches the state outlines from public/basemap/ (a static file, compressed by the server, outside the JS
// chunk). It is a copy of the us-atlas package's file: after an upgrade of us-atlas this fails until it is copied again.
const require = createRequire(import.meta.url);

describe("the basemap file served to the map", () => {
  it("is us-atlas's states-10m.json, byte for byte, with the states object the map reads", () => {
    const served = readFileSync("public/basemap/us-states-10m.json");
    const packaged = readFileSync(require.resolve("us-atlas/states-10m.json"));
    expect(served.equals(packaged)).toBe(true);
    const topology = JSON.parse(served.toString("utf8")) as { type: string; objects: { states?: { geometries: unknown[] } } };
    expect(topology.type).toBe("Topology");
    expect(topology.objects.states?.geometries.length).toBe(56);
  });
});
