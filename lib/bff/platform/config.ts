import "server-only";

import { resolve } from "node:path";

import { isLoopbackHost } from "@/lib/fleet-api";

import { type MirrorConfig, parseMirrorConfig } from "./config-mirror";
import { DEFAULT_UPSTREAM, type Env, EnvSchema } from "./config-schema";
import { sessionDbProblems, sessionPasswords } from "./config-session";

/**
 * The BFF's configuration: environment variables parsed with zod once, at startup (instrumentation.ts), failing
 * with every bad variable named. See docs/configuration.md and .env.example. The schema of each variable is
 * config-schema.ts; the session's passwords and store are config-session.ts; the checks across variables are here.
 */

export interface BffConfig {
  upstream: {
    baseUrl: string;
    allowInsecureHttp: boolean;
    budget: number;
    windowMs: number;
    timeoutMs: number;
    /** How long a person's request may wait out a 429 before it is answered with the wait (FleetApiClientOptions). */
    interactiveMaxWaitMs: number;
    /**
     * Whether the upstream is this project's sandbox: SANDBOX=1 (set by `npm start` when it starts the sandbox, and by
     * the tests) and a loopback address. Never inferred from the address alone — a loopback egress proxy to the real
     * provider is loopback too. Only then: the demo key, the test hooks, a generated SESSION_SECRET and plain http.
     */
    isSandbox: boolean;
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
  /** Mirror-backed requests one session may have running at once (lib/bff/platform/running-limit mirrorReadLimit). */
  mirrorReadsPerSession: number;
  /** Worker threads for the mirror's heavy SQLite reads (lib/bff/platform/off-thread); 0 = on the request thread. */
  mirrorWorkers: number;
  redisUrl: string | undefined;
  tileUrl: string | undefined;
  /** Plain-text credit for the tiles, shown in the map's attribution control. */
  tileAttribution: string | undefined;
  trustProxy: boolean;
  publicOrigins: string[];
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** The token of the test-only routes, or undefined when they are off. */
  testHooksToken: string | undefined;
  /** The sandbox's demo key pair offered on /login (the sandbox only: upstream.isSandbox), or undefined. Never sent to a browser. */
  demoKey: { keyId: string; secret: string } | undefined;
  /** The fleet mirror (config-mirror.ts): on or off, its store, its retention. */
  mirror: MirrorConfig;
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
  const upstream = upstreamOf(env, parsed.success ? parsed.data.SANDBOX : false);
  problems.push(...crossProblems(env, upstream, parsed.success ? parsed.data.FLEET_API_ALLOW_INSECURE_HTTP : false));
  const warn =
    options.warn ??
    ((m: string) => {
      console.warn(m);
    });
  const session = sessionPasswords(env, upstream, { cwd, warn }, problems);
  const dbPath = parsed.success ? resolve(cwd, parsed.data.SESSION_DB) : "";
  if (dbPath !== "") problems.push(...sessionDbProblems(dbPath));
  const mirror = parseMirrorConfig(env, cwd);
  problems.push(...mirror.problems);
  if (problems.length > 0 || !parsed.success || mirror.config === undefined) throw new ConfigError(problems);
  return { ...toConfig(parsed.data, { isSandbox: upstream.isSandbox, ...session, dbPath }), mirror: mirror.config };
}

interface Upstream {
  /** "" when the URL cannot be read (the schema names that problem). */
  host: string;
  /** SANDBOX=1 and a loopback host: what the sandbox's conveniences need (see BffConfig.upstream.isSandbox). */
  isSandbox: boolean;
  /** SANDBOX=1 as given (true even when the host is not loopback, which crossProblems refuses). */
  saysSandbox: boolean;
  /** As given, or the default: the checks run on it even when the schema failed. */
  rawUrl: string;
}

function upstreamOf(env: Readonly<Record<string, string | undefined>>, saysSandbox: boolean): Upstream {
  const givenUrl = env.FLEET_API_BASE_URL?.trim() ?? "";
  const rawUrl = givenUrl === "" ? DEFAULT_UPSTREAM : givenUrl;
  let host = "";
  try {
    host = new URL(rawUrl).hostname;
  } catch {
    // named by the schema
  }
  return { host, isSandbox: saysSandbox && isLoopbackHost(host), saysSandbox, rawUrl };
}

/** The checks across variables: what is only safe against the sandbox, and what goes in pairs. */
function crossProblems(
  env: Readonly<Record<string, string | undefined>>,
  { host, isSandbox, saysSandbox, rawUrl }: Upstream,
  allowInsecure: boolean,
): string[] {
  const problems: string[] = [];
  if (saysSandbox && host !== "" && !isLoopbackHost(host))
    problems.push(
      `SANDBOX=1 says the upstream is this project's sandbox, which runs on this machine only, but FLEET_API_BASE_URL points at ${host}; unset SANDBOX for a real provider`,
    );
  if (rawUrl.startsWith("http:") && host !== "" && !isSandbox && !allowInsecure) {
    problems.push(
      "FLEET_API_BASE_URL must use https unless the upstream is this project's sandbox (SANDBOX=1, on this machine); set FLEET_API_ALLOW_INSECURE_HTTP=true only for a test server on your LAN or an egress proxy on this machine",
    );
  }
  if (env.BFF_TEST_HOOKS?.trim() && host !== "" && !isSandbox)
    problems.push("BFF_TEST_HOOKS may only be enabled against the sandbox (SANDBOX=1 and an upstream on this machine)");
  const hasDemoId = Boolean(env.DEMO_KEY_ID?.trim());
  const hasDemoSecret = Boolean(env.DEMO_KEY_SECRET?.trim());
  if (hasDemoId !== hasDemoSecret)
    problems.push("DEMO_KEY_ID and DEMO_KEY_SECRET go together: set both (the sandbox's demo pair) or neither");
  // Offering a key to anyone who opens /login is only right for the sandbox's demo data, never a real account.
  if ((hasDemoId || hasDemoSecret) && host !== "" && !isSandbox)
    problems.push(
      "DEMO_KEY_ID/DEMO_KEY_SECRET may only be set when the upstream is the sandbox (SANDBOX=1 and an upstream on this machine)",
    );
  return problems;
}

/** The parsed variables as the BFF uses them (milliseconds, the cookie's name, one demo pair or none). */
function toConfig(
  e: Env,
  derived: { isSandbox: boolean; passwords: Record<string, string>; generatedSecret: boolean; dbPath: string },
): Omit<BffConfig, "mirror"> {
  const secureCookie = !e.SESSION_INSECURE_COOKIE;
  return {
    upstream: {
      baseUrl: e.FLEET_API_BASE_URL.replace(/\/+$/, ""),
      allowInsecureHttp: e.FLEET_API_ALLOW_INSECURE_HTTP,
      budget: e.FLEET_API_BUDGET,
      windowMs: e.FLEET_API_WINDOW_SECONDS * 1000,
      timeoutMs: e.FLEET_API_TIMEOUT_MS,
      interactiveMaxWaitMs: e.FLEET_API_INTERACTIVE_WAIT_SECONDS * 1000,
      isSandbox: derived.isSandbox,
    },
    session: {
      passwords: derived.passwords,
      secureCookie,
      cookieName: secureCookie ? "__Host-ffd_session" : "ffd_session",
      idleMs: e.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: e.SESSION_ABSOLUTE_HOURS * 3_600_000,
      generatedSecret: derived.generatedSecret,
      dbPath: derived.dbPath,
    },
    cacheTtlMs: {
      account: e.CACHE_TTL_ACCOUNT_SECONDS * 1000,
      transactions: e.CACHE_TTL_TRANSACTIONS_SECONDS * 1000,
      summary: e.CACHE_TTL_SUMMARY_SECONDS * 1000,
      locations: e.CACHE_TTL_LOCATIONS_SECONDS * 1000,
    },
    exportIdleMs: e.EXPORT_IDLE_SECONDS * 1000,
    mirrorReadsPerSession: e.MIRROR_READS_PER_SESSION,
    mirrorWorkers: e.MIRROR_WORKERS,
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

/** Tests only. */
export function resetConfigForTests(): void {
  cached = undefined;
}
