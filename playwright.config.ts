// Playwright end-to-end tests (e2e/): Debian's Chromium against the built app and the sandbox, once per sandbox
// profile. `npm run test:e2e` builds the app first when the build is missing or stale (scripts/prepare-e2e.ts, which also installs Debian's chromium when missing and running as root):
// Playwright starts `webServer`s before `globalSetup`, so the build cannot happen there.
// The sandboxes run with --control: e2e/states.spec.ts makes them slow, failing or rate-limiting through /sandbox/faults.
// A small tile server (e2e/tile-server.ts) stands in for the operator's TILE_URL.
import { defineConfig } from "@playwright/test";

import type { E2eWorkerOptions } from "./e2e/fixtures";
import {
  appOrigin,
  E2E_INTERACTIVE_WAIT_SECONDS,
  LIVE_APP_WINDOW_SECONDS,
  liveAppOrigin,
  type Profile,
  PROFILES,
  serversOf,
  TILE_ATTRIBUTION,
  TILE_SERVER_PORT,
  tileServerOrigin,
  tileUrlOf,
  UPSTREAM_SPECS,
} from "./e2e/profiles";
// Test tooling may read the sandbox's seed: the demo pair is derived from the seed the e2e sandboxes use (the default).
import { DEFAULT_SEED, demoCredentials } from "./sandbox/db/seed";
import { appNodeArgs } from "./scripts/app-heap";

const isCi = Boolean(process.env.CI);
const TSX_CLI = "node_modules/tsx/dist/cli.mjs";
const NEXT_BIN = "node_modules/next/dist/bin/next";
/** A fixed, test-only session password (iron-session needs at least 32 characters). */
const SESSION_SECRET = "e2e-only-session-secret-0123456789abcdef";
/** The upstream request budget per key, raised in both the sandbox and the app so no test waits for it. */
const BUDGET = "100000";
const SERVER_TIMEOUT_MS = 120_000;
/** SIGTERM first, so the sandbox closes its database and `next start` exits cleanly; SIGKILL after this long. */
const GRACEFUL_SHUTDOWN = { signal: "SIGTERM" as const, timeout: 10_000 };

/** The pair the login page offers as "Sign in with the demo key" (as `npm start` sets it). */
const DEMO = demoCredentials(DEFAULT_SEED, "demo-full");

/** One `next start` of the built app on `port` against the sandbox on `sandboxPort`, with the env given on top. */
function appServer(profile: Profile, name: string, port: number, sandboxPort: number, env: Record<string, string>) {
  return {
    name,
    command: `node ${appNodeArgs().join(" ")} ${NEXT_BIN} start -p ${String(port)} -H 127.0.0.1`,
    // Any HTTP answer (401 without a session) means the app is up.
    url: `http://127.0.0.1:${String(port)}/api/session`,
    reuseExistingServer: false,
    timeout: SERVER_TIMEOUT_MS,
    gracefulShutdown: GRACEFUL_SHUTDOWN,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      FLEET_API_BASE_URL: `http://127.0.0.1:${String(sandboxPort)}/api/v1`,
      // The upstream is this project's sandbox (as `npm start` says it): the demo key and plain http are allowed.
      SANDBOX: "1",
      SESSION_SECRET,
      FLEET_API_BUDGET: BUDGET,
      // Shorter than the product's 30 s, so the rate-limit journeys wait out a 15 s 429 instead of a 35 s one.
      FLEET_API_INTERACTIVE_WAIT_SECONDS: String(E2E_INTERACTIVE_WAIT_SECONDS),
      LOG_LEVEL: "warn",
      DEMO_KEY_ID: DEMO.keyId,
      DEMO_KEY_SECRET: DEMO.secret,
      // Real tiles from the e2e tile server (e2e/stations.spec.ts switches them off to test the fallback).
      TILE_URL: tileUrlOf(profile),
      TILE_ATTRIBUTION,
      ...env,
    },
  };
}

/** One sandbox of the profile on `port` and `db`, with the fault controls (`--control`). */
function sandboxServer(profile: Profile, name: string, port: number, db: string) {
  return {
    name,
    command: `node ${TSX_CLI} sandbox/cli.ts --port ${String(port)} --db ${db} --reset --profile ${profile} --budget ${BUDGET} --quiet --control`,
    url: `http://127.0.0.1:${String(port)}/healthz`,
    reuseExistingServer: false,
    timeout: SERVER_TIMEOUT_MS,
    gracefulShutdown: GRACEFUL_SHUTDOWN,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
  };
}

function serversFor(profile: Profile) {
  const { sandboxPort, appPort, db, mirrorDb, liveAppPort, upstreamSandboxPort, upstreamDb } = serversOf(profile);
  return [
    sandboxServer(profile, `sandbox ${profile}`, sandboxPort, db),
    // The mirror on, as in production; its file is new each run (e2e/profiles.ts, scripts/prepare-e2e.ts).
    // The night-or-weekend rule (off by default) on: e2e/exceptions.spec.ts ties its count to the sandbox's rows and
    // pages through the hundred-odd hits it gives.
    appServer(profile, `app ${profile}`, appPort, sandboxPort, { MIRROR_PATH: mirrorDb, EXCEPTIONS_OFF_HOURS: "true" }),
    // The upstream journeys' own sandbox (UPSTREAM_SPECS): their faults never reach the app above.
    sandboxServer(profile, `sandbox ${profile} upstream`, upstreamSandboxPort, upstreamDb),
    // Every answer from the upstream: the specs of upstream faults and live export walks (e2e/fixtures.ts liveTest).
    // Its budget window is short (e2e/profiles.ts LIVE_APP_WINDOW_SECONDS): after a rate-limit journey's 429 the
    // page's retry waits seconds, not a minute, for the budget the 429 taught the BFF.
    appServer(profile, `app ${profile} without mirror`, liveAppPort, upstreamSandboxPort, {
      MIRROR_ENABLED: "false",
      FLEET_API_WINDOW_SECONDS: String(LIVE_APP_WINDOW_SECONDS),
    }),
  ];
}

/**
 * Spec files of one profile's mirror project that run at once: one. They share its demo key, its mirror and its head
 * sync (at most one every 30 s per customer), and some journeys need them alone: mirror.spec's "Sync now" waits for
 * the button the other worker's pages kept disabled, stations-detail.spec spends the key's budget on purpose.
 */
export const MIRROR_LANE_WORKERS = 1;

/** All lanes at once on the 2 cores: the upstream lanes mostly wait (rate limits, latency), so the CPU is shared well. */
const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? String(PROFILES.length * (MIRROR_LANE_WORKERS + 1)));

/**
 * Specs of the page's own behaviour, the same whatever shape the upstream answers in (the BFF's tolerant client and
 * its vitest suites cover both shapes), each run in one profile only, split to keep the two profiles' lanes about
 * equally long (issue 26: the suite stays fast). The column menu and footer, the zone switching, the navigation shell;
 * the layout checks of issue 26, which measure the browser's boxes, font sizes and layout shifts of pages drawn from
 * the BFF's own model (the chart's text, the stations page's columns, the 24 px targets, a driver's page while its
 * figures load, rows as cards on a phone, hydration without mismatch); and the insight pages (drill-downs,
 * jurisdictions, exceptions, savings), which read the local copy in the BFF's own model: how each shape reaches that
 * copy is checked in both profiles by mirror.spec and by vitest (the mirror's sync and the tie-out of every figure,
 * both profiles and both stores). Anything that reads the upstream's shape (scopes, products, prices, the account,
 * errors) stays in both. A driver's page runs in primary: its header shows the customer's code there (the alternative
 * account has none), whose wrapping once moved the page.
 */
export const ONE_PROFILE_SPECS: Readonly<Record<string, Profile>> = {
  "transactions-toolbar.spec.ts": "primary",
  "shell.spec.ts": "primary",
  "transactions-zones.spec.ts": "alternative",
  "charts.spec.ts": "alternative",
  "stations-layout.spec.ts": "alternative",
  "target-size.spec.ts": "alternative",
  "drilldowns-layout.spec.ts": "primary",
  "drilldowns.spec.ts": "primary",
  "savings.spec.ts": "primary",
  "hydration.spec.ts": "primary",
  "jurisdictions.spec.ts": "alternative",
  "exceptions.spec.ts": "alternative",
  "phone-cards.spec.ts": "alternative",
};

export default defineConfig<object, E2eWorkerOptions>({
  testDir: "e2e",
  forbidOnly: isCi,
  retries: isCi ? 1 : 0,
  // Four lanes (issue 26: the suite stays fast). Each profile has two projects with their own servers (e2e/profiles.ts):
  // `<profile>` on the app with the mirror and the first sandbox, whose specs share one demo key and one mirror and so
  // run one at a time (MIRROR_LANE_WORKERS); `<profile>-upstream` on the app without a mirror and
  // the second sandbox, whose specs (UPSTREAM_SPECS) set faults on that sandbox and so run one at a time. The profiles
  // share nothing but the tile server, each under its own path. E2E_WORKERS changes the total (1 runs all in turn).
  workers: E2E_WORKERS,
  fullyParallel: false,
  // Bounds for a hang, not checks of speed: the lanes' browsers and apps share the 2 cores; under CI (.ci/run), on a
  // machine that may be slower or busier than a developer's, the bounds are doubled.
  timeout: isCi ? 120_000 : 60_000,
  expect: { timeout: isCi ? 30_000 : 15_000 },
  reporter: [["list"], ["json", { outputFile: ".ci-results/playwright.json" }]],
  use: {
    headless: true,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  // The upstream projects first, so their waits (rate limits, latency) start while the others use the CPU.
  projects: PROFILES.flatMap((profile) => {
    // A spec whose journey does not depend on the API's shape runs in one profile only (ONE_PROFILE_SPECS).
    const otherProfiles = Object.entries(ONE_PROFILE_SPECS)
      .filter(([, only]) => only !== profile)
      .map(([spec]) => `**/${spec}`);
    const upstream = UPSTREAM_SPECS.map((spec) => `**/${spec}`);
    return [
      {
        name: `${profile}-upstream`,
        workers: 1,
        testMatch: upstream,
        testIgnore: otherProfiles,
        use: { baseURL: liveAppOrigin(profile), profile },
      },
      {
        name: profile,
        workers: MIRROR_LANE_WORKERS,
        testIgnore: [...otherProfiles, ...upstream],
        use: { baseURL: appOrigin(profile), profile },
      },
    ];
  }),
  webServer: [
    {
      name: "tiles",
      command: `node ${TSX_CLI} e2e/tile-server.ts --port ${String(TILE_SERVER_PORT)}`,
      url: `${tileServerOrigin()}/healthz`,
      reuseExistingServer: false,
      timeout: SERVER_TIMEOUT_MS,
      gracefulShutdown: GRACEFUL_SHUTDOWN,
      stdout: "ignore" as const,
      stderr: "pipe" as const,
    },
    ...PROFILES.flatMap(serversFor),
  ],
});
