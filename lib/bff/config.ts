import "server-only";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { isLoopbackHost } from "@/lib/fleet-api";

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
        ctx.addIssue({
          code: "custom",
          message: `${name} must be a whole number from ${String(min)} to ${String(max)} (got "${v}")`,
        });
        return z.NEVER;
      }
      return n;
    });

const EnvSchema = z.object({
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
  FLEET_API_BUDGET: int("FLEET_API_BUDGET", 60, 1, 100_000),
  FLEET_API_WINDOW_SECONDS: int("FLEET_API_WINDOW_SECONDS", 60, 1, 3600),
  FLEET_API_TIMEOUT_MS: int("FLEET_API_TIMEOUT_MS", 15_000, 500, 120_000),
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
  // The sandbox's demo key pair, offered on /login as "Sign in with the demo key" (local upstream only; the secret
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

const DEFAULT_UPSTREAM = "http://127.0.0.1:4010/api/v1";
const SECRET_FILE = ".data/session-secret";
const DEFAULT_SESSION_DB = ".data/sessions.db";
const MIN_SECRET_LENGTH = 32;

export interface BffConfig {
  upstream: {
    baseUrl: string;
    allowInsecureHttp: boolean;
    budget: number;
    windowMs: number;
    timeoutMs: number;
    isLocal: boolean;
  };
  session: {
    passwords: Record<string, string>;
    secureCookie: boolean;
    cookieName: string;
    idleMs: number;
    absoluteMs: number;
    generatedSecret: boolean;
    /** Absolute path of the SQLite file of signed-out sessions (used when redisUrl is unset). */
    dbPath: string;
  };
  cacheTtlMs: { account: number; transactions: number; summary: number; locations: number };
  /** How long an export's download may go unread before it is cancelled. */
  exportIdleMs: number;
  redisUrl: string | undefined;
  tileUrl: string | undefined;
  /** Plain-text credit for the tiles, shown in the map's attribution control. */
  tileAttribution: string | undefined;
  trustProxy: boolean;
  publicOrigins: string[];
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** The token of the test-only routes, or undefined when they are off. */
  testHooksToken: string | undefined;
  /** The sandbox's demo key pair offered on /login (local upstream only), or undefined. Never sent to a browser. */
  demoKey: { keyId: string; secret: string } | undefined;
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

export function parseConfig(
  env: Readonly<Record<string, string | undefined>>,
  options: { cwd?: string; warn?: (message: string) => void } = {},
): BffConfig {
  const parsed = EnvSchema.safeParse(env);
  const cwd = options.cwd ?? process.cwd();
  // Every problem is named at once: the schema's, and the checks across variables below (run on the raw values
  // when the schema failed).
  const problems: string[] = parsed.success
    ? []
    : parsed.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message));
  const givenUrl = env.FLEET_API_BASE_URL?.trim() ?? "";
  const rawUrl = givenUrl === "" ? DEFAULT_UPSTREAM : givenUrl;
  let host = "";
  try {
    host = new URL(rawUrl).hostname;
  } catch {
    // named by the schema
  }
  const isLocal = isLoopbackHost(host);
  const allowInsecure = parsed.success ? parsed.data.FLEET_API_ALLOW_INSECURE_HTTP : false;
  if (rawUrl.startsWith("http:") && host !== "" && !isLocal && !allowInsecure) {
    problems.push(
      "FLEET_API_BASE_URL must use https unless it points at this machine (set FLEET_API_ALLOW_INSECURE_HTTP=true only for a test server on your LAN)",
    );
  }
  if (env.BFF_TEST_HOOKS?.trim() && host !== "" && !isLocal)
    problems.push("BFF_TEST_HOOKS may only be enabled against a local upstream (the sandbox)");
  const hasDemoId = Boolean(env.DEMO_KEY_ID?.trim());
  const hasDemoSecret = Boolean(env.DEMO_KEY_SECRET?.trim());
  if (hasDemoId !== hasDemoSecret)
    problems.push("DEMO_KEY_ID and DEMO_KEY_SECRET go together: set both (the sandbox's demo pair) or neither");
  // Offering a key to anyone who opens /login is only right for the local sandbox's demo data, never a real account.
  if ((hasDemoId || hasDemoSecret) && host !== "" && !isLocal)
    problems.push("DEMO_KEY_ID/DEMO_KEY_SECRET may only be set when the upstream is the local sandbox");

  let passwords: Record<string, string> = {};
  let generatedSecret = false;
  const rawSecret = env.SESSION_SECRET?.trim() ?? "";
  if (rawSecret !== "") {
    passwords = parsePasswords(rawSecret, problems);
  } else if (isLocal) {
    passwords = {
      "1": localSecret(
        cwd,
        options.warn ??
          ((m) => {
            console.warn(m);
          }),
      ),
    };
    generatedSecret = true;
  } else if (host !== "") {
    problems.push(
      "SESSION_SECRET is required when the upstream is not this machine (at least 32 characters; give ids to rotate: 2:new,1:old)",
    );
  }
  const dbPath = parsed.success ? resolve(cwd, parsed.data.SESSION_DB) : "";
  if (dbPath !== "") problems.push(...sessionDbProblems(dbPath));
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  const e = parsed.data;
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
      dbPath,
    },
    cacheTtlMs: {
      account: e.CACHE_TTL_ACCOUNT_SECONDS * 1000,
      transactions: e.CACHE_TTL_TRANSACTIONS_SECONDS * 1000,
      summary: e.CACHE_TTL_SUMMARY_SECONDS * 1000,
      locations: e.CACHE_TTL_LOCATIONS_SECONDS * 1000,
    },
    exportIdleMs: e.EXPORT_IDLE_SECONDS * 1000,
    redisUrl: e.REDIS_URL,
    tileUrl: e.TILE_URL,
    tileAttribution: e.TILE_ATTRIBUTION,
    trustProxy: e.TRUST_PROXY,
    publicOrigins: e.PUBLIC_ORIGINS,
    logLevel: e.LOG_LEVEL,
    testHooksToken: e.BFF_TEST_HOOKS,
    demoKey:
      e.DEMO_KEY_ID !== undefined && e.DEMO_KEY_SECRET !== undefined
        ? { keyId: e.DEMO_KEY_ID, secret: e.DEMO_KEY_SECRET }
        : undefined,
  };
}

/**
 * SESSION_SECRET: one password, or several as `id:password`, comma-separated (e.g. `3:newest,2:previous`). The highest
 * id seals new cookies; every listed one unseals. Ids must stay with their password across rotations, or existing
 * sessions could not be unsealed; a list without ids is numbered from the end (newest first) — fine for one password.
 */
function parsePasswords(raw: string, problems: string[]): Record<string, string> {
  const entries = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const withIds = entries.every((s) => /^\d{1,6}:/.test(s));
  const out: Record<string, string> = {};
  entries.forEach((entry, i) => {
    const [id, password] = withIds
      ? [entry.slice(0, entry.indexOf(":")), entry.slice(entry.indexOf(":") + 1)]
      : [String(entries.length - i), entry];
    if (password.length < MIN_SECRET_LENGTH)
      problems.push(
        `SESSION_SECRET: password ${id} is ${String(password.length)} characters; each needs at least ${String(MIN_SECRET_LENGTH)}`,
      );
    if (Object.hasOwn(out, id)) problems.push(`SESSION_SECRET: the id ${id} is used twice`);
    out[id] = password;
  });
  return out;
}

/** SESSION_DB must be a file (or not exist yet) whose folder exists or can be created. */
function sessionDbProblems(path: string): string[] {
  if (existsSync(path) && statSync(path).isDirectory())
    return [`SESSION_DB: ${path} is a folder; give a file path, e.g. .data/sessions.db`];
  // The nearest existing ancestor must be a folder, or the file could never be created.
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (existsSync(dir))
      return statSync(dir).isDirectory() ? [] : [`SESSION_DB: ${dir} is a file, so ${path} cannot be created under it`];
    if (dirname(dir) === dir) return [];
  }
}

/** For local use without SESSION_SECRET: a generated secret kept under .data/ with owner-only permissions. */
function localSecret(cwd: string, warn: (message: string) => void): string {
  const path = join(cwd, SECRET_FILE);
  if (existsSync(path)) {
    const existing = readFileSync(path, "utf8").trim();
    if (existing.length >= MIN_SECRET_LENGTH) {
      if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600); // owner-only, whoever created it
      return existing;
    }
  }
  mkdirSync(dirname(path), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  warn(
    `[dashboard] SESSION_SECRET is not set: generated one for local use in ${SECRET_FILE} (owner-only). Set SESSION_SECRET in production.`,
  );
  return secret;
}

/** Tests only. */
export function resetConfigForTests(): void {
  cached = undefined;
}
