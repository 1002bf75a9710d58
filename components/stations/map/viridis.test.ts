import { interpolateViridis as d3Viridis } from "d3-scale-chromatic";
import { describe, expect, it } from "vitest";

import { interpolateViridis } from "./viridis";

describe("the map's viridis ramp", () => {
  it("gives d3-scale-chromatic's colour at every step and past both ends", () => {
    for (let i = -2; i <= 514; i++) expect(interpolateViridis(i / 512), String(i)).toBe(d3Viridis(i / 512));
  });
});
