// The suites run side by side (issue 26: .ci/run well under 30 minutes on 2 cores): vitest in several forks, and the
// two Playwright projects at once, each project's specs one at a time. What makes that safe is checked here: the
// two profiles' e2e servers share no port and no file.
import { existsSync, readdirSync } from "node:fs";

import { describe, expect, it } from "vitest";

import {
  E2E_INTERACTIVE_WAIT_SECONDS,
  LIVE_APP_WINDOW_SECONDS,
  PROFILES,
  RATE_LIMIT_SECONDS,
  serversOf,
  tileUrlOf,
} from "@/e2e/profiles";
import { INTERACTIVE_MAX_WAIT_MS } from "@/lib/fleet-api/client-options";
import playwrightConfig, { ONE_PROFILE_SPECS } from "@/playwright.config";
import { SLOWEST_FIRST } from "@/test/sequencer";
import vitestConfig from "@/vitest.config";

describe("test parallelism", () => {
  it("vitest runs more forks than one (its default on 2 cores is cores − 1)", () => {
    expect(vitestConfig.test?.maxWorkers).toBeGreaterThan(1);
    expect(vitestConfig.test?.fileParallelism).not.toBe(false);
  });

  it("Playwright runs one worker per profile, and each profile's specs one at a time (states.spec.ts sets faults)", () => {
    expect(playwrightConfig.workers).toBe(PROFILES.length);
    expect(playwrightConfig.fullyParallel).toBe(false);
    expect(playwrightConfig.projects?.map((p) => [p.name, p.workers])).toEqual(PROFILES.map((p) => [p, 1]));
  });

  it("a one-profile spec exists and runs in exactly the profile named for it; every other spec runs in both", () => {
    const specs = readdirSync("e2e").filter((file) => file.endsWith(".spec.ts"));
    expect(Object.keys(ONE_PROFILE_SPECS).filter((spec) => !specs.includes(spec))).toEqual([]);
    const runsIn = (spec: string) =>
      (playwrightConfig.projects ?? [])
        .filter((project) => {
          const ignored = [project.testIgnore ?? []].flat();
          return !ignored.some((pattern) => typeof pattern === "string" && pattern === `**/${spec}`);
        })
        .map((project) => project.name);
    for (const spec of specs)
      expect(runsIn(spec), spec).toEqual(ONE_PROFILE_SPECS[spec] ? [ONE_PROFILE_SPECS[spec]] : PROFILES);
  });

  it("the e2e apps answer a 429 longer than a few seconds at once, so the rate-limit journeys wait 15 s, not a minute", () => {
    const apps = [playwrightConfig.webServer ?? []].flat().filter((server) => server.name?.startsWith("app "));
    expect(apps).toHaveLength(2 * PROFILES.length);
    for (const app of apps)
      expect(app.env?.FLEET_API_INTERACTIVE_WAIT_SECONDS, app.name).toBe(String(E2E_INTERACTIVE_WAIT_SECONDS));
    // The journeys' 429 is longer than the apps' wait (the page shows it at once) and shorter than the product's.
    expect(E2E_INTERACTIVE_WAIT_SECONDS).toBeLessThan(RATE_LIMIT_SECONDS);
    expect(RATE_LIMIT_SECONDS * 1000).toBeLessThan(INTERACTIVE_MAX_WAIT_MS);
    // The apps of the upstream-fault journeys win back the budget a 429 lowered within seconds, not a minute.
    const live = apps.filter((app) => app.name?.endsWith("without mirror"));
    expect(live.map((app) => app.env?.FLEET_API_WINDOW_SECONDS)).toEqual(
      PROFILES.map(() => String(LIVE_APP_WINDOW_SECONDS)),
    );
  });

  it("the two profiles' sandboxes, apps, databases, mirror files and tile paths are all distinct", () => {
    const [first, second] = PROFILES.map((profile) => {
      const s = serversOf(profile);
      return [s.sandboxPort, s.appPort, s.liveAppPort, s.db, s.mirrorDb, tileUrlOf(profile)];
    });
    const all = [...(first ?? []), ...(second ?? [])];
    expect(new Set(all).size).toBe(all.length);
  });

  it("the files the sequencer starts first all exist (a renamed one would silently lose its place)", () => {
    expect(SLOWEST_FIRST.filter((file) => !existsSync(file))).toEqual([]);
  });
});
