import { describe, expect, it } from "vitest";

import { BenchContext } from "../lib/context";
import type { LighthouseResult, LighthouseRunner } from "../lib/lighthouse";
import { measureLighthouse, REFERENCE_CALIBRATION_MS, tbtGoal } from "./pages-lighthouse";

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

describe("Lighthouse over the pages", () => {
  const result: LighthouseResult = {
    performance: 100,
    accessibility: 100,
    bestPractices: 100,
    lcpMs: 500,
    tbtMs: 10,
    cls: 0,
    scriptBytes: 150_000,
    scripts: [{ url: "http://127.0.0.1/_next/static/chunks/a.js", transferSize: 150_000 }],
    requestUrls: [],
    lcpElement: "",
    shifts: [],
    failedAudits: { accessibility: [], bestPractices: [] },
    benchmarkIndex: 1000,
  };

  it("reports a page Lighthouse cannot trace as not measured, and measures the pages after it", async () => {
    const ctx = new BenchContext({ smoke: false, long: false, reseed: false });
    const runner: LighthouseRunner = {
      run: (url) =>
        url.endsWith("/drivers")
          ? Promise.reject(new Error("Lighthouse on /drivers: NO_NAVSTART (3 attempts)"))
          : Promise.resolve(result),
    };
    const pages = ["/", "/drivers", "/trucks"].map((path) => ({ path, name: path }));
    await measureLighthouse(
      ctx,
      { origin: "http://127.0.0.1", cookie: "c", runs: 2, mapPresent: true, pages },
      { launch: () => Promise.resolve(runner), mapFiles: () => [] },
    );
    const unmeasured = ctx.figures.filter((f) => f.status === "not-measured").map((f) => f.name);
    expect(unmeasured).toEqual(["/drivers desktop: Lighthouse", "/drivers mobile: Lighthouse"]);
    for (const page of ["/", "/trucks"])
      for (const preset of ["desktop", "mobile"])
        expect(ctx.figures.map((f) => f.name)).toContain(`${page} ${preset}: TBT`);
  });
});
