import { describe, expect, it } from "vitest";

import { BenchContext } from "../lib/context";
import { measureRoutePlanner } from "./map-route";

describe("the map part's route planner figures", () => {
  it("adds one timed figure per catalog size, with its candidates and plan in the note (smoke: 2,500 only)", () => {
    const ctx = new BenchContext({ smoke: true, long: false, reseed: false });
    measureRoutePlanner(ctx);
    expect(ctx.figures).toHaveLength(1);
    const [figure] = ctx.figures;
    expect(figure?.name).toMatch(
      /^Route planner, 1,4\d\d-mile route over 2,500 stations: candidates \+ ranking \+ plan$/,
    );
    expect(figure?.unit).toBe("ms");
    expect(typeof figure?.value).toBe("number");
    expect(figure?.goal).toEqual({ op: "<=", target: 50 });
    expect(figure?.note).toMatch(/\d+ candidates within 10 mi, plan: \d+ stops, \$\d+\.\d\d/);
    expect(figure?.command).toBe("npm run bench -- map --smoke");
  });
});
