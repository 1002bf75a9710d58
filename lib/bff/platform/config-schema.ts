import "server-only";

import { z } from "zod";

import { DEFAULT_EXCEPTION_THRESHOLDS as D } from "@/lib/insights/exceptions/types";

/**
 * The schema of the BFF's environment variables (zod): each variable's type, default and bounds, and a message that
 * names the variable and says what to give. The checks across variables live in config.ts.
 */

export const DEFAULT_UPSTREAM = "http://127.0.0.1:4010/api/v1";
export const DEFAULT_SESSION_DB = ".data/sessions.db";

export const flag = (name: string, fallback: boolean) =>
  z
    .enum(["1", "0", "true", "false", "yes", "no", ""], { error: `${name} must be true or false` })
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : ["1", "true", "yes"].includes(v)));
export const int = (name: string, fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const n = Number(v);
      if (!/^\d+$/.test(v.trim()) || n < min || n > max) {
        ctx.addIssue({
          code: "custom",
          message: `${name} must be a whole number from ${String(min)} to ${String(max)} (got "${v}")`,
        });
        return z.NEVER;
      }
      return n;
    });

/**
 * The exception rules' thresholds (issue 16 item 3; lib/insights/exceptions), whole numbers an operator may change;
 * the defaults are DEFAULT_EXCEPTION_THRESHOLDS' and the /exceptions page shows both. Read by
 * lib/bff/insights/exceptions-thresholds.ts; part of EnvSchema so a bad value stops the server at start.
 */
export const ExceptionsEnvSchema = z.object({
  EXCEPTIONS_RAPID_FILLS_COUNT: int("EXCEPTIONS_RAPID_FILLS_COUNT", D.rapidFillsCount, 2, 50),
  EXCEPTIONS_RAPID_FILLS_WINDOW_MINUTES: int(
    "EXCEPTIONS_RAPID_FILLS_WINDOW_MINUTES",
    D.rapidFillsWindowMinutes,
    1,
    7 * 24 * 60,
  ),
  EXCEPTIONS_LARGE_FILL_PERCENTILE: int("EXCEPTIONS_LARGE_FILL_PERCENTILE", D.largeFillPercentile, 50, 100),
  EXCEPTIONS_LARGE_FILL_MEDIAN_PERCENT: int(
    "EXCEPTIONS_LARGE_FILL_MEDIAN_PERCENT",
    D.largeFillMedianPercent,
    100,
    1000,
  ),
  EXCEPTIONS_HISTORY_MIN_FILLS: int("EXCEPTIONS_HISTORY_MIN_FILLS", D.historyMinFills, 1, 10_000),
  EXCEPTIONS_HISTORY_DAYS: int("EXCEPTIONS_HISTORY_DAYS", D.historyDays, 7, 3_653),
  EXCEPTIONS_NIGHT_START_HOUR: int("EXCEPTIONS_NIGHT_START_HOUR", D.nightStartHour, 0, 23),
  EXCEPTIONS_NIGHT_END_HOUR: int("EXCEPTIONS_NIGHT_END_HOUR", D.nightEndHour, 0, 23),
  EXCEPTIONS_WEEKENDS: flag("EXCEPTIONS_WEEKENDS", D.weekends),
  EXCEPTIONS_PRICE_MARGIN_CENTS: int("EXCEPTIONS_PRICE_MARGIN_CENTS", D.priceMarginCents, 0, 10_000),
  EXCEPTIONS_UNUSUAL_PRODUCT_MAX_PERCENT: int(
    "EXCEPTIONS_UNUSUAL_PRODUCT_MAX_PERCENT",
    D.unusualProductMaxPercent,
    1,
    50,
  ),
  EXCEPTIONS_DEF_DIESEL_WINDOW_MINUTES: int(
    "EXCEPTIONS_DEF_DIESEL_WINDOW_MINUTES",
    D.defDieselWindowMinutes,
    0,
    24 * 60,
  ),
  EXCEPTIONS_TRAVEL_MPH: int("EXCEPTIONS_TRAVEL_MPH", D.travelMph, 10, 1_000),
  EXCEPTIONS_TRAVEL_MIN_MILES: int("EXCEPTIONS_TRAVEL_MIN_MILES", D.travelMinMiles, 0, 3_000),
  EXCEPTIONS_FAILED_WINDOW_MINUTES: int("EXCEPTIONS_FAILED_WINDOW_MINUTES", D.failedWindowMinutes, 1, 24 * 60),
  EXCEPTIONS_OFF_HOURS: flag("EXCEPTIONS_OFF_HOURS", D.offHoursOn),
  EXCEPTIONS_CATALOG_PRICE: flag("EXCEPTIONS_CATALOG_PRICE", D.catalogPriceOn),
});

export const EnvSchema = z.object({
  ...ExceptionsEnvSchema.shape,
  FLEET_API_BASE_URL: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? DEFAULT_UPSTREAM : v.trim()))
    .pipe(
      z.url({
        protocol: /^https?$/,
        error: "FLEET_API_BASE_URL must be an absolute http(s) URL, e.g. https://api.example.com/api/v1",
      }),
    ),
  FLEET_API_ALLOW_INSECURE_HTTP: flag("FLEET_API_ALLOW_INSECURE_HTTP", false),
  // The upstream is this project's sandbox (`npm start` sets it when it starts one; the tests and e2e set it): with a
  // loopback upstream, the sandbox's conveniences (config.ts). Never inferred from a loopback address alone.
  SANDBOX: flag("SANDBOX", false),
  FLEET_API_BUDGET: int("FLEET_API_BUDGET", 60, 1, 100_000),
  FLEET_API_WINDOW_SECONDS: int("FLEET_API_WINDOW_SECONDS", 60, 1, 3600),
  FLEET_API_TIMEOUT_MS: int("FLEET_API_TIMEOUT_MS", 15_000, 500, 120_000),
  // How long a person's request may wait out the provider's 429 behind a spinner before the page shows the wait.
  FLEET_API_INTERACTIVE_WAIT_SECONDS: int("FLEET_API_INTERACTIVE_WAIT_SECONDS", 30, 1, 300),
  SESSION_SECRET: z.string().optional(),
  SESSION_INSECURE_COOKIE: flag("SESSION_INSECURE_COOKIE", false),
  SESSION_IDLE_MINUTES: int("SESSION_IDLE_MINUTES", 30, 1, 24 * 60),
  SESSION_ABSOLUTE_HOURS: int("SESSION_ABSOLUTE_HOURS", 12, 1, 24 * 30),
  // Where signed-out sessions are remembered (unless REDIS_URL is set): a file path, relative to the app's directory.
  SESSION_DB: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? DEFAULT_SESSION_DB : v.trim()))
    .pipe(
      z.string().refine((v) => !/[\\/]$/.test(v) && v !== "." && v !== "..", {
        error: "SESSION_DB must be a file path, e.g. .data/sessions.db (not a folder)",
      }),
    ),
  CACHE_TTL_ACCOUNT_SECONDS: int("CACHE_TTL_ACCOUNT_SECONDS", 30, 0, 3600),
  CACHE_TTL_TRANSACTIONS_SECONDS: int("CACHE_TTL_TRANSACTIONS_SECONDS", 20, 0, 3600),
  CACHE_TTL_SUMMARY_SECONDS: int("CACHE_TTL_SUMMARY_SECONDS", 60, 0, 3600),
  CACHE_TTL_LOCATIONS_SECONDS: int("CACHE_TTL_LOCATIONS_SECONDS", 300, 0, 86_400),
  // A download the browser has not read from for this long is cancelled (its upstream walk and its export slot freed).
  EXPORT_IDLE_SECONDS: int("EXPORT_IDLE_SECONDS", 120, 1, 3600),
  // Mirror-backed requests one session may have running at once; beyond it a 429 (lib/bff/platform/running-limit).
  MIRROR_READS_PER_SESSION: int("MIRROR_READS_PER_SESSION", 3, 1, 20),
  // Worker threads for the mirror's heavy SQLite reads (lib/bff/platform/off-thread); 0 runs them on the request thread.
  MIRROR_WORKERS: int("MIRROR_WORKERS", 2, 0, 16),
  REDIS_URL: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()))
    .pipe(z.url({ protocol: /^rediss?$/, error: "REDIS_URL must be a redis:// or rediss:// URL" }).optional()),
  TILE_URL: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()))
    .pipe(
      z
        .url({
          protocol: /^https?$/,
          error: "TILE_URL must be an http(s) URL template, e.g. https://tiles.example.com/{z}/{x}/{y}.png",
        })
        .optional(),
    ),
  // Plain text (Leaflet writes attributions as HTML; the map escapes it, and markup here is refused outright).
  TILE_ATTRIBUTION: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()))
    .pipe(
      z
        .string()
        .max(300, { error: "TILE_ATTRIBUTION must be at most 300 characters" })
        // eslint-disable-next-line no-control-regex -- refusing control characters is the point
        .refine((v) => !/[<>\u0000-\u001f\u007f]/.test(v), {
          error:
            "TILE_ATTRIBUTION must be plain text (no < > or control characters), e.g. © OpenStreetMap contributors",
        })
        .optional(),
    ),
  TRUST_PROXY: flag("TRUST_PROXY", false),
  // Other origins this same app is reached at (behind a proxy that rewrites Host), accepted by the CSRF check.
  PUBLIC_ORIGINS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.url({
          protocol: /^https?$/,
          error: "PUBLIC_ORIGINS must be comma-separated origins like https://fleet.example.com",
        }),
      ),
    ),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      error: "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
  // The sandbox's demo key pair, offered on /login as "Sign in with the demo key" (SANDBOX=1 only; the secret
  // stays on the server). `npm start` sets both when it starts the sandbox.
  DEMO_KEY_ID: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim())),
  DEMO_KEY_SECRET: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim())),
  // A token (≥ 16 characters) enabling the test-only routes, which then require it in X-Test-Hooks-Token.
  BFF_TEST_HOOKS: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()))
    .pipe(
      z.string().min(16, { error: "BFF_TEST_HOOKS must be a token of at least 16 characters (tests only)" }).optional(),
    ),
});

export type Env = z.infer<typeof EnvSchema>;
