import "server-only";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { z } from "zod";

/**
 * The BFF's configuration: environment variables parsed with zod once, at startup (instrumentation.ts), failing
 * with every bad variable named. See README "Configuration" and .env.example.
 */
const flag = (name: string, fallback: boolean) =>
  z
    .enum(["1", "0", "true", "false", "yes", "no", ""], { error: `${name} must be true or false` })
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : ["1", "true", "yes"].includes(v)));
const int = (name: string, fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const n = Number(v);
      if (!/^\d+$/.test(v.trim()) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message: `${name} must be a whole number from ${String(min)} to ${String(max)} (got "${v}")` });
        return z.NEVER;
      }
      return n;
    });

const EnvSchema = z.object({
  FLEET_API_BASE_URL: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? DEFAULT_UPSTREAM : v.trim()))
    .pipe(z.url({ protocol: /^https?$/, error: "FLEET_API_BASE_URL must be an absolute http(s) URL, e.g. https://api.example.com/api/v1" })),
  FLEET_API_ALLOW_INSECURE_HTTP: flag("FLEET_API_ALLOW_INSECURE_HTTP", false),
  FLEET_API_BUDGET: int("FLEET_API_BUDGET", 60, 1, 100_000),
  FLEET_API_WINDOW_SECONDS: int("FLEET_API_WINDOW_SECONDS", 60, 1, 3600),
  FLEET_API_TIMEOUT_MS: int("FLEET_API_TIMEOUT_MS", 15_000, 500, 120_000),
  SESSION_SECRET: z.string().optional(),
  SESSION_INSECURE_COOKIE: flag("SESSION_INSECURE_COOKIE", false),
  SESSION_IDLE_MINUTES: int("SESSION_IDLE_MINUTES", 30, 1, 24 * 60),
  SESSION_ABSOLUTE_HOURS: int("SESSION_ABSOLUTE_HOURS", 12, 1, 24 * 30),
  CACHE_TTL_ACCOUNT_SECONDS: int("CACHE_TTL_ACCOUNT_SECONDS", 30, 0, 3600),
  CACHE_TTL_TRANSACTIONS_SECONDS: int("CACHE_TTL_TRANSACTIONS_SECONDS", 20, 0, 3600),
  CACHE_TTL_SUMMARY_SECONDS: int("CACHE_TTL_SUMMARY_SECONDS", 60, 0, 3600),
  CACHE_TTL_LOCATIONS_SECONDS: int("CACHE_TTL_LOCATIONS_SECONDS", 300, 0, 86_400),
  REDIS_URL: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()))
    .pipe(z.url({ protocol: /^rediss?$/, error: "REDIS_URL must be a redis:// or rediss:// URL" }).optional()),
  TILE_URL: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()))
    .pipe(z.url({ protocol: /^https?$/, error: "TILE_URL must be an http(s) URL template, e.g. https://tiles.example.com/{z}/{x}/{y}.png" }).optional()),
  TRUST_PROXY: flag("TRUST_PROXY", false),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], { error: "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent" }).default("info"),
  BFF_TEST_HOOKS: flag("BFF_TEST_HOOKS", false),
});

const DEFAULT_UPSTREAM = "http://127.0.0.1:4010/api/v1";
const SECRET_FILE = ".data/session-secret";
const MIN_SECRET_LENGTH = 32;

export interface BffConfig {
  upstream: { baseUrl: string; allowInsecureHttp: boolean; budget: number; windowMs: number; timeoutMs: number; isLocal: boolean };
  session: { passwords: Record<string, string>; secureCookie: boolean; cookieName: string; idleMs: number; absoluteMs: number; generatedSecret: boolean };
  cacheTtlMs: { account: number; transactions: number; summary: number; locations: number };
  redisUrl: string | undefined;
  tileUrl: string | undefined;
  trustProxy: boolean;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  testHooks: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`The dashboard cannot start; fix its configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

let cached: BffConfig | undefined;

/** The configuration, parsed on first use (instrumentation.ts calls this at startup so bad values stop the start). */
export function getConfig(): BffConfig {
  cached ??= parseConfig(process.env);
  return cached;
}

export function parseConfig(env: Readonly<Record<string, string | undefined>>, options: { cwd?: string; warn?: (message: string) => void } = {}): BffConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)));
  const e = parsed.data;
  const problems: string[] = [];
  const host = new URL(e.FLEET_API_BASE_URL).hostname;
  const isLocal = host === "localhost" || host === "[::1]" || host.startsWith("127.");
  if (e.FLEET_API_BASE_URL.startsWith("http:") && !isLocal && !e.FLEET_API_ALLOW_INSECURE_HTTP) {
    problems.push("FLEET_API_BASE_URL must use https unless it points at this machine (set FLEET_API_ALLOW_INSECURE_HTTP=true only for a test server on your LAN)");
  }
  if (e.BFF_TEST_HOOKS && !isLocal) problems.push("BFF_TEST_HOOKS may only be enabled against a local upstream (the sandbox)");

  let secrets: string[] = [];
  let generatedSecret = false;
  if (e.SESSION_SECRET !== undefined && e.SESSION_SECRET.trim() !== "") {
    // Several passwords, newest first, separated by commas: the newest seals, all unseal (rotation).
    secrets = e.SESSION_SECRET.split(",").map((s) => s.trim());
    secrets.forEach((s, i) => {
      if (s.length < MIN_SECRET_LENGTH) problems.push(`SESSION_SECRET: password ${String(i + 1)} is ${String(s.length)} characters; each needs at least ${String(MIN_SECRET_LENGTH)}`);
    });
  } else if (isLocal) {
    secrets = [localSecret(options.cwd ?? process.cwd(), options.warn ?? ((m) => { console.warn(m); }))];
    generatedSecret = true;
  } else {
    problems.push("SESSION_SECRET is required when the upstream is not this machine (at least 32 characters; several, comma-separated, newest first, to rotate)");
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const passwords = Object.fromEntries(secrets.map((s, i) => [String(secrets.length - i), s]));
  const secureCookie = !e.SESSION_INSECURE_COOKIE;
  return {
    upstream: {
      baseUrl: e.FLEET_API_BASE_URL.replace(/\/+$/, ""),
      allowInsecureHttp: e.FLEET_API_ALLOW_INSECURE_HTTP,
      budget: e.FLEET_API_BUDGET,
      windowMs: e.FLEET_API_WINDOW_SECONDS * 1000,
      timeoutMs: e.FLEET_API_TIMEOUT_MS,
      isLocal,
    },
    session: {
      passwords,
      secureCookie,
      cookieName: secureCookie ? "__Host-ffd_session" : "ffd_session",
      idleMs: e.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: e.SESSION_ABSOLUTE_HOURS * 3_600_000,
      generatedSecret,
    },
    cacheTtlMs: {
      account: e.CACHE_TTL_ACCOUNT_SECONDS * 1000,
      transactions: e.CACHE_TTL_TRANSACTIONS_SECONDS * 1000,
      summary: e.CACHE_TTL_SUMMARY_SECONDS * 1000,
      locations: e.CACHE_TTL_LOCATIONS_SECONDS * 1000,
    },
    redisUrl: e.REDIS_URL,
    tileUrl: e.TILE_URL,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    testHooks: e.BFF_TEST_HOOKS,
  };
}

/** For local use without SESSION_SECRET: a generated secret kept under .data/ with owner-only permissions. */
function localSecret(cwd: string, warn: (message: string) => void): string {
  const path = join(cwd, SECRET_FILE);
  if (existsSync(path)) {
    const existing = readFileSync(path, "utf8").trim();
    if (existing.length >= MIN_SECRET_LENGTH) return existing;
  }
  mkdirSync(dirname(path), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  warn(`[dashboard] SESSION_SECRET is not set: generated one for local use in ${SECRET_FILE} (owner-only). Set SESSION_SECRET in production.`);
  return secret;
}

/** Tests only. */
export function resetConfigForTests(): void {
  cached = undefined;
}
