import { describe, expect, it } from "vitest";

import { REFERENCE_CALIBRATION_MS, tbtGoal } from "./pages-lighthouse";

describe("the pages' TBT goal per host class (issue 26)", () => {
  it("is 200 ms on the reference class and faster hosts", () => {
    expect(tbtGoal(REFERENCE_CALIBRATION_MS).target).toBe(200);
    expect(tbtGoal(REFERENCE_CALIBRATION_MS / 2).target).toBe(200);
  });

  it("grows with a slower host's calibration figure, and says so", () => {
    const goal = tbtGoal(REFERENCE_CALIBRATION_MS * 1.5);
    expect(goal.target).toBe(300);
    expect(goal.note).toContain("1.50× the reference class");
  });

  it("falls back to 200 ms without a figure", () => {
    expect(tbtGoal(undefined).target).toBe(200);
  });
});
