import "server-only";

import pg from "pg";

import { getConfig } from "../config";
import { publicOperation } from "../operation";
import { NoQuery } from "../params";
import { sharedRedis } from "../redis";

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
 * HTTP answer means reachable — that spends no key's budget and is no credential check.
 */
export const getHealth = publicOperation({
  route: "GET /api/healthz",
  input: { query: NoQuery },
  csrf: "read-only",
  priority: "interactive",
  run: async (): Promise<Response> => {
    const [redis, database, upstream] = await Promise.all([redisHealth(), databaseHealth(), upstreamHealth()]);
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

async function databaseHealth(): Promise<Reachability> {
  const { mirror } = getConfig();
  if (!mirror.enabled || mirror.databaseUrl === undefined) return "off";
  const client = new pg.Client({ connectionString: mirror.databaseUrl, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return "ok";
  } catch {
    return "down";
  } finally {
    await client.end().catch(() => undefined);
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
