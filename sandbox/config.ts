/**
 * Runtime settings of one sandbox server. The database holds the data; the profile decides how it is shown.
 */
export const PROFILES = ["primary", "alternative"] as const;
export type Profile = (typeof PROFILES)[number];

/** Request budget per key per window, as the spec gives it for each profile. */
const DEFAULT_BUDGET: Readonly<Record<Profile, number>> = { primary: 60, alternative: 120 };
const DEFAULT_WINDOW_SECONDS = 60;
/** Failed key-pair checks (POST /auth, Basic) per client address per window before it is answered 429. */
const DEFAULT_FAILED_AUTH_BUDGET = 20;
const TOKEN_TTL_SECONDS = 3600;

export interface FaultSettings {
  /** Added latency for every /api/v1 request, in ms. */
  latencyMs: number;
  /** Fraction (0–1) of requests answered 500 server_error. */
  errorRate: number;
  /** Fraction of requests whose connection is cut without an answer. */
  dropRate: number;
  /** Fraction of requests answered with truncated, unparseable JSON. */
  malformedRate: number;
  /** Honour the per-request `X-Sandbox-Fault` header (tests). Off by default. */
  headers: boolean;
  /** When above 0, every /api/v1 request is answered 429 `rate_limited` with `Retry-After` of this many seconds. */
  rateLimitSeconds: number;
}

export const NO_FAULTS: FaultSettings = {
  latencyMs: 0,
  errorRate: 0,
  dropRate: 0,
  malformedRate: 0,
  headers: false,
  rateLimitSeconds: 0,
};

export interface SandboxConfig {
  profile: Profile;
  budget: number;
  windowSeconds: number;
  /** Failed key-pair checks per client address per window; past it, key-pair checks from there are 429. */
  failedAuthBudget: number;
  tokenTtlSeconds: number;
  /** Fault injection; replaced at run time through /sandbox/faults when `control` is on. */
  faults: FaultSettings;
  /**
   * Serve `GET|PUT|DELETE /sandbox/faults` so a test can change the faults of a running sandbox (e2e journeys of a
   * slow, failing or rate-limiting upstream). Off by default; `--control` on the command line.
   */
  control: boolean;
  /** Clock in epoch milliseconds; tests inject their own. */
  now: () => number;
  /** Source of randomness for fault rates; tests inject their own. */
  random: () => number;
}

export function createConfig(overrides: Partial<SandboxConfig> = {}): SandboxConfig {
  const profile = overrides.profile ?? "primary";
  return {
    profile,
    budget: overrides.budget ?? DEFAULT_BUDGET[profile],
    windowSeconds: overrides.windowSeconds ?? DEFAULT_WINDOW_SECONDS,
    failedAuthBudget: overrides.failedAuthBudget ?? DEFAULT_FAILED_AUTH_BUDGET,
    tokenTtlSeconds: overrides.tokenTtlSeconds ?? TOKEN_TTL_SECONDS,
    faults: overrides.faults ?? NO_FAULTS,
    control: overrides.control ?? false,
    now: overrides.now ?? Date.now,
    random: overrides.random ?? Math.random,
  };
}
