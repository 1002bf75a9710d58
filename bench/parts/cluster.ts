/**
 * Part 15: several instances (issue 17). Three built app instances share one redis-server (REDIS_URL: the budget, the
 * tokens, the caches) in front of the sandbox at the provider's real budget (60 requests per key per minute):
 *
 * - requests/s served on a cached page's data route (`GET /api/account`: its answer is in the shared cache after the
 *   first call) by one instance, then by three with the same client load spread over them;
 * - the upstream's 429s under that load (goal 0: the budget and the cache are shared, so more instances do not spend
 *   more of the provider's allowance);
 * - the Redis budget's added latency per upstream call (the cluster-budget figure, goal p50 ≤ 1 ms).
 *
 * On this 2-core machine three instances and the load generator share the cores: the ratio says what spreading buys
 * here, not on three machines.
 */
import { startRedisServer } from "@/test/redis-server";

import { type App, signIn, startBenchApp } from "../lib/app";
import type { BenchContext } from "../lib/context";
import { runLoad } from "../lib/load";
import { register } from "../lib/processes";
import { seededDatabase, startSandbox } from "../lib/sandbox";
import { addSharedBudgetLatency } from "./cluster-budget";

const INSTANCES = 3;
const ROUTE = "/api/account";
const PROVIDER_BUDGET = 60;
const SIZES = { default: { seconds: 10, connections: 24 }, smoke: { seconds: 2, connections: 12 } };

export async function runClusterPart(ctx: BenchContext): Promise<void> {
  const size = ctx.options.smoke ? SIZES.smoke : SIZES.default;
  const [sandbox, redis] = await Promise.all([
    startSandbox({
      db: seededDatabase({ transactions: 3_000, stations: 400 }, ctx.options.reseed),
      log: true,
      args: ["--budget", String(PROVIDER_BUDGET)],
    }),
    startRedisServer(),
  ]);
  const stopSandbox = register("the sandbox (cluster)", () => sandbox.stop());
  const stopRedis = register("redis-server (cluster)", () => redis.stop());
  const apps: App[] = [];
  try {
    for (let i = 0; i < INSTANCES; i++)
      apps.push(
        await startBenchApp(sandbox.baseUrl, { REDIS_URL: redis.url, FLEET_API_BUDGET: String(PROVIDER_BUDGET) }),
      );
    const { cookie } = await signIn(apps[0]?.origin ?? "", sandbox.key);
    const headers = { cookie };
    // Warm: the first call fills the shared cache; every instance then answers from it.
    for (const app of apps) await fetch(`${app.origin}${ROUTE}`, { headers });
    const before = sandbox.requestCount();
    const one = await runLoad({
      url: `${apps[0]?.origin ?? ""}${ROUTE}`,
      headers,
      connections: size.connections,
      seconds: size.seconds,
    });
    const spread = await Promise.all(
      apps.map((app) =>
        runLoad({
          url: `${app.origin}${ROUTE}`,
          headers,
          connections: Math.ceil(size.connections / INSTANCES),
          seconds: size.seconds,
        }),
      ),
    );
    const upstream = sandbox.requestLines(before);
    const threeRps = spread.reduce((sum, r) => sum + r.rps, 0);
    const failures = one.failures + spread.reduce((sum, r) => sum + r.failures, 0);
    const note = `GET ${ROUTE} (answered from the shared cache), ${String(size.connections)} connections for ${String(size.seconds)} s; three instances: the same connections spread evenly, rps summed; ${String(failures)} non-2xx or failed answers in all; a 2-core machine shared by the instances and the load generator`;
    ctx.add({
      part: "cluster",
      name: "Requests/s on a cached page's data route, 1 instance",
      value: Math.round(one.rps),
      unit: "req/s",
      note,
    });
    ctx.add({
      part: "cluster",
      name: "Requests/s on a cached page's data route, 3 instances",
      value: Math.round(threeRps),
      unit: "req/s",
      note,
    });
    ctx.add({
      part: "cluster",
      name: "Upstream 429s under that load",
      value: upstream.filter((line) => line.includes(" 429 ")).length,
      unit: "count",
      goal: { op: "<=", target: 0 },
      note: `the sandbox's own log over both runs (budget ${String(PROVIDER_BUDGET)} per minute); upstream requests in all: ${String(upstream.length)}`,
    });
    ctx.add({
      part: "cluster",
      name: "Failed answers under that load",
      value: failures,
      unit: "count",
      goal: { op: "<=", target: 0 },
      note: "non-2xx answers, connection errors and timeouts over both runs",
    });
  } finally {
    for (const app of apps) await app.stop();
    await stopRedis();
    await stopSandbox();
  }
  await addSharedBudgetLatency(ctx, "cluster");
}
