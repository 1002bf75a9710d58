// The two sandbox profiles the e2e suite runs against, each with its own sandbox and app on fixed local ports.
// Shared by playwright.config.ts (which starts the servers) and fixtures.ts (which reads the demo keys).

export const PROFILES = ["primary", "alternative"] as const;
export type Profile = (typeof PROFILES)[number];

interface ProfileServers {
  sandboxPort: number;
  appPort: number;
  /** The sandbox's SQLite file, reset on every run. */
  db: string;
  /**
   * The app's mirror (MIRROR_PATH), deleted before every run by scripts/prepare-e2e.ts: the sandbox starts from its seed
   * each run, so a mirror kept from the last one would hold rows the sandbox no longer has. Per port base, so runs
   * on other ports never share one.
   */
  mirrorDb: string;
  /**
   * A second app with the mirror off (MIRROR_ENABLED=false), on the profile's second sandbox: the specs of upstream
   * faults and of exports walked live (UPSTREAM_SPECS, e2e/fixtures.ts `liveTest`) use it, since a synced mirror answers
   * without the upstream.
   */
  liveAppPort: number;
  /**
   * The profile's second sandbox (same profile and seed, hence the same customers, keys and rows), for the upstream
   * journeys alone: the faults they set (e2e/fixtures.ts setSandboxFaults) and the keys they create touch only it, so
   * those journeys run beside the rest of the profile's specs (issue 26: the suite stays fast).
   */
  upstreamSandboxPort: number;
  /** The second sandbox's SQLite file, reset on every run. */
  upstreamDb: string;
}

/**
 * E2E_PORT_BASE moves every port at once (default 4600: sandboxes 4601/4602, apps 4611/4612, tile server 4620, apps
 * without a mirror 4631/4632, the upstream journeys' sandboxes 4641/4642).
 */
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? "4600");
if (!Number.isInteger(PORT_BASE) || PORT_BASE < 1024 || PORT_BASE > 65_000) {
  throw new Error(
    `E2E_PORT_BASE must be an integer from 1024 to 65000; got ${JSON.stringify(process.env.E2E_PORT_BASE)}.`,
  );
}

export function serversOf(profile: Profile): ProfileServers {
  const index = PROFILES.indexOf(profile) + 1;
  return {
    sandboxPort: PORT_BASE + index,
    appPort: PORT_BASE + 10 + index,
    db: `.data/e2e-${profile}.db`,
    mirrorDb: `.data/e2e-mirror-${String(PORT_BASE)}-${profile}.db`,
    liveAppPort: PORT_BASE + 30 + index,
    upstreamSandboxPort: PORT_BASE + 40 + index,
    upstreamDb: `.data/e2e-${profile}-upstream.db`,
  };
}

export function appOrigin(profile: Profile): string {
  return `http://127.0.0.1:${serversOf(profile).appPort}`;
}

/**
 * The specs whose subject is the upstream path (faults, rate limits, live export walks, a server without a mirror):
 * they run in the profile's `-upstream` Playwright project, on the app without a mirror and the second sandbox.
 */
export const UPSTREAM_SPECS: readonly string[] = [
  "states.spec.ts",
  "export.spec.ts",
  "stations-products.spec.ts",
  "overview-console.spec.ts",
];

/** The profile's app without a mirror (every answer from the upstream, its second sandbox). */
export function liveAppOrigin(profile: Profile): string {
  return `http://127.0.0.1:${String(serversOf(profile).liveAppPort)}`;
}

/**
 * How long the e2e apps let a person's request wait out the upstream's 429 (FLEET_API_INTERACTIVE_WAIT_SECONDS; the
 * product's default is 30). A 429 asking for longer is answered with the wait at once, which the page counts down: the
 * rate-limit journeys (e2e/states.spec.ts, e2e/stations-products.spec.ts) then wait out RATE_LIMIT_SECONDS, not 35 s.
 */
export const E2E_INTERACTIVE_WAIT_SECONDS = 5;

/**
 * The Retry-After of the rate-limit journeys' injected 429: longer than E2E_INTERACTIVE_WAIT_SECONDS, so the BFF
 * answers at once with the wait (no spinner), and long enough that the countdown is still on screen under load.
 */
export const RATE_LIMIT_SECONDS = 15;

/**
 * The BFF's budget window on the apps without a mirror (FLEET_API_WINDOW_SECONDS; the product's default is 60), where
 * the upstream-fault journeys run. A 429 teaches the BFF a budget as low as what the key sent in the current window,
 * so the page's retry after the countdown waits for that window to move on: 10 s here instead of a minute. The
 * budget itself (100,000) is never reached, so the window changes nothing else there.
 */
export const LIVE_APP_WINDOW_SECONDS = 10;

/** The e2e tile server (e2e/tile-server.ts), shared by both profiles: each profile's app asks for `/{profile}/…`. */
export const TILE_SERVER_PORT = PORT_BASE + 20;

export function tileServerOrigin(): string {
  return `http://127.0.0.1:${String(TILE_SERVER_PORT)}`;
}

/** The TILE_URL template the profile's app is started with. */
export function tileUrlOf(profile: Profile): string {
  return `${tileServerOrigin()}/${profile}/{z}/{x}/{y}.png`;
}

/** The attribution the e2e apps show for those tiles (TILE_ATTRIBUTION). */
export const TILE_ATTRIBUTION = "Test tiles (e2e tile server)";
