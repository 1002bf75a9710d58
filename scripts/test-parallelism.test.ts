// The suites run in parallel (issue 26: .ci/run well under 30 minutes on 2 cores): vitest in several forks, and
// Playwright in four lanes (per profile: the specs on the mirror's app one at a time, and beside them the upstream
// journeys one at a time on their own sandbox). What makes that safe is checked here: the lanes share no port, no file and no sandbox
// that a fault is set on.
import { existsSync, readdirSync, readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import {
  E2E_INTERACTIVE_WAIT_SECONDS,
  LIVE_APP_WINDOW_SECONDS,
  PROFILES,
  RATE_LIMIT_SECONDS,
  serversOf,
  tileUrlOf,
  UPSTREAM_SPECS,
} from "@/e2e/profiles";
import { INTERACTIVE_MAX_WAIT_MS } from "@/lib/fleet-api/client-options";
import playwrightConfig, { MIRROR_LANE_WORKERS, ONE_PROFILE_SPECS } from "@/playwright.config";
import { SLOWEST_FIRST } from "@/test/sequencer";
import vitestConfig from "@/vitest.config";

describe("test parallelism", () => {
  it("vitest runs more forks than one (its default on 2 cores is cores − 1)", () => {
    expect(vitestConfig.test?.maxWorkers).toBeGreaterThan(1);
    expect(vitestConfig.test?.fileParallelism).not.toBe(false);
  });

  const specs = readdirSync("e2e").filter((file) => file.endsWith(".spec.ts"));
  const patterns = (value: unknown): unknown[] => [value ?? []].flat();
  /** The projects a spec file runs in, from their testMatch/testIgnore globs (the config writes `**\/<file>`). */
  const projectsOf = (spec: string) =>
    (playwrightConfig.projects ?? [])
      .filter((project) => {
        const match = patterns(project.testMatch);
        if (match.length > 0 && !match.includes(`**/${spec}`)) return false;
        return !patterns(project.testIgnore).includes(`**/${spec}`);
      })
      .map((project) => project.name);

  it("Playwright runs per profile a mirror lane and an upstream lane, one spec at a time each, all lanes at once", () => {
    expect(MIRROR_LANE_WORKERS).toBe(1);
    expect(playwrightConfig.fullyParallel).toBe(false);
    expect(playwrightConfig.projects?.map((p) => [p.name, p.workers])).toEqual(
      PROFILES.flatMap((p) => [
        [`${p}-upstream`, 1],
        [p, MIRROR_LANE_WORKERS],
      ]),
    );
    expect(playwrightConfig.workers).toBe(PROFILES.length * (MIRROR_LANE_WORKERS + 1));
  });

  it("a one-profile spec exists and runs in exactly the profile named for it; every other spec runs in both", () => {
    expect(Object.keys(ONE_PROFILE_SPECS).filter((spec) => !specs.includes(spec))).toEqual([]);
    expect(UPSTREAM_SPECS.filter((spec) => !specs.includes(spec))).toEqual([]);
    for (const spec of specs) {
      const lane = (profile: string) => (UPSTREAM_SPECS.includes(spec) ? `${profile}-upstream` : profile);
      const only = ONE_PROFILE_SPECS[spec];
      expect(projectsOf(spec), spec).toEqual(only ? [lane(only)] : PROFILES.map(lane));
    }
  });

  it("only the upstream lanes' specs set sandbox faults or create keys, and they all use the app without a mirror", () => {
    for (const spec of specs) {
      const text = readFileSync(`e2e/${spec}`, "utf8");
      const upstreamOnly = /\b(setSandboxFaults|resetSandboxFaults|createSandboxKey|liveTest)\b/.test(text);
      expect(upstreamOnly, spec).toBe(UPSTREAM_SPECS.includes(spec));
      if (UPSTREAM_SPECS.includes(spec)) expect(text, spec).toMatch(/liveTest as test/);
    }
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
    // The app without a mirror asks the upstream lane's sandbox; the mirror's app the other one.
    expect(live.map((app) => app.env?.FLEET_API_BASE_URL)).toEqual(
      PROFILES.map((p) => `http://127.0.0.1:${String(serversOf(p).upstreamSandboxPort)}/api/v1`),
    );
    expect(apps.filter((app) => !live.includes(app)).map((app) => app.env?.FLEET_API_BASE_URL)).toEqual(
      PROFILES.map((p) => `http://127.0.0.1:${String(serversOf(p).sandboxPort)}/api/v1`),
    );
  });

  it("the lanes' sandboxes, apps, databases, mirror files and tile paths are all distinct", () => {
    const all = PROFILES.flatMap((profile) => {
      const s = serversOf(profile);
      return [
        s.sandboxPort,
        s.upstreamSandboxPort,
        s.appPort,
        s.liveAppPort,
        s.db,
        s.upstreamDb,
        s.mirrorDb,
        tileUrlOf(profile),
      ];
    });
    expect(new Set(all).size).toBe(all.length);
  });

  it("the files the sequencer starts first all exist (a renamed one would silently lose its place)", () => {
    expect(SLOWEST_FIRST.filter((file) => !existsSync(file))).toEqual([]);
  });
});
