import "server-only";

import { sql } from "kysely";

import { publicOperation } from "../http/operation";
import { NoQuery } from "../http/query";
import { now } from "../platform/clock";
import { getConfig } from "../platform/config";
import { sharedRedis } from "../platform/redis";
import { mirrorService } from "../sync";
import { cachedProbe } from "./probe-cache";

export type Reachability = "ok" | "down" | "off";

export interface Health {
  ok: boolean;
  /** The shared state (REDIS_URL); `off` without it (one instance). */
  redis: Reachability;
  /** The mirror's PostgreSQL (DATABASE_URL); `off` without it (a local SQLite file, or no mirror). */
  database: Reachability;
  upstream: "reachable" | "unreachable";
}

const PROBE_TIMEOUT_MS = 2_000;
/** How long the mirror's store may take to open (migrations) before the database counts as down. */
const STORE_OPEN_TIMEOUT_MS = 10_000;
/**
 * How long the database's and the upstream's answers are reused: /api/healthz is public, so without this every
 * anonymous call would be an upstream request and a database query (issue 24 item 4).
 */
const SHARED_PROBE_TTL_MS = 10_000;

/**
 * GET /api/livez — for the load balancer's check: 200 while this process serves requests, whatever Redis, PostgreSQL
 * or the upstream do. It asks nothing of them on purpose: they are shared by every instance, so a check that followed
 * them would mark all instances down at once when one of them fails, and users would get the balancer's bare error page
 * instead of the dashboard's own 503 that says what is wrong. Public, and tells nothing but that the process answers.
 */
export const getLiveness = publicOperation({
  route: "GET /api/livez",
  input: { query: NoQuery },
  csrf: "read-only",
  priority: "interactive",
  run: (): Promise<Response> =>
    Promise.resolve(Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } })),
});

/**
 * GET /api/healthz — for monitoring and operators: can this instance reach what it needs? 200 when everything
 * configured answers, 503 otherwise; the body names which part is down. Not for the load balancer's check (that is
 * /api/livez): the parts it probes are shared, so when one is down every instance fails it alike. Public and secret-free: no URL, host, key or
 * error text, only the three states. The upstream probe is one unauthenticated GET of the API's base address — any
 * HTTP answer means reachable — that spends no key's budget and is no credential check. The database and upstream
 * answers are reused for 10 s and each probe runs at most once at a time (cachedProbe), the database's through the
 * mirror's own pool: many anonymous calls cost at most one upstream request and one query per 10 s. Redis is pinged
 * each time (one PING on the connection the instance already holds).
 */
export const getHealth = publicOperation({
  route: "GET /api/healthz",
  input: { query: NoQuery },
  csrf: "read-only",
  priority: "interactive",
  run: async (): Promise<Response> => {
    const [redis, database, upstream] = await Promise.all([redisHealth(), databaseProbe(), upstreamProbe()]);
    const ok = redis !== "down" && database !== "down" && upstream === "reachable";
    const health: Health = { ok, redis, database, upstream };
    return Response.json(health, { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
  },
});

async function redisHealth(): Promise<Reachability> {
  const redis = sharedRedis();
  if (redis === null) return "off";
  try {
    await redis.ping();
    return "ok";
  } catch {
    return "down";
  }
}

/**
 * The mirror's PostgreSQL, through the pool the mirror already holds (never a client of its own per call). The store
 * may still be opening (its migrations run at start, while another instance may hold their lock): that gets longer
 * than the query itself, so a busy start is not reported as a database that is down.
 */
async function databaseHealth(): Promise<Reachability> {
  const { mirror } = getConfig();
  if (!mirror.enabled || mirror.databaseUrl === undefined) return "off";
  const store = await within(mirrorService().start(), STORE_OPEN_TIMEOUT_MS);
  if (store === undefined) return "down";
  const answered = await within(
    sql`SELECT 1`.execute(store.db).then(() => true),
    PROBE_TIMEOUT_MS,
  );
  return answered === true ? "ok" : "down";
}

/** The promise's value, or undefined when it fails or takes longer than `ms` (it is not cancelled: it settles later). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      resolve(undefined);
    }, ms);
  });
  try {
    return await Promise.race([promise.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function upstreamHealth(): Promise<"reachable" | "unreachable"> {
  try {
    const reply = await fetch(getConfig().upstream.baseUrl, {
      redirect: "manual",
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await reply.body?.cancel();
    return "reachable";
  } catch {
    return "unreachable";
  }
}

const holder = globalThis as typeof globalThis & {
  __ffdHealthProbes?: { database: () => Promise<Reachability>; upstream: () => Promise<"reachable" | "unreachable"> };
};

/** The shared probes, once per process (on globalThis: Next may load this module more than once). */
function sharedProbes(): NonNullable<typeof holder.__ffdHealthProbes> {
  holder.__ffdHealthProbes ??= {
    database: cachedProbe(databaseHealth, { ttlMs: SHARED_PROBE_TTL_MS, now }),
    upstream: cachedProbe(upstreamHealth, { ttlMs: SHARED_PROBE_TTL_MS, now }),
  };
  return holder.__ffdHealthProbes;
}

const databaseProbe = () => sharedProbes().database();
const upstreamProbe = () => sharedProbes().upstream();
