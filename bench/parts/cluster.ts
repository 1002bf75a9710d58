/**
 * Part 15: several instances (issue 17). Three built app instances share one redis-server (REDIS_URL: the budget, the
 * tokens, the caches) in front of the sandbox at the provider's real budget (60 requests per key per minute):
 *
 * - requests/s served on a cached page's data route (`GET /api/account`: its answer is in the shared cache after the
 *   first call) by one instance, then by three with the same client load spread over them;
 * - the upstream's 429s under load that the cache cannot answer (goal 0): distinct transaction pages asked of all three
 *   instances at once, faster than the provider's 60 a minute, so the shared budget must hold the calls back; with
 *   the busiest 60-second window of upstream requests (at most the budget). The cached phase above costs the upstream
 *   nothing, so its 429s could not show a budget that was not shared;
 * - the Redis budget's added latency per upstream call (the cluster-budget figure, goal p50 ≤ 1 ms).
 *
 * On this 2-core machine three instances and the load generator share the cores: the ratio says what spreading buys
 * here, not on three machines.
 */
import { busiestWindow } from "@/test/cluster-stack";

import { type App, signIn, startBenchApp } from "../lib/app";
import type { BenchContext } from "../lib/context";
import { runLoad } from "../lib/load";
import { register } from "../lib/processes";
import { seededDatabase, startSandbox } from "../lib/sandbox";
import { startBenchRedis } from "../lib/services";
import { addSharedBudgetLatency } from "./cluster-budget";

const INSTANCES = 3;
const ROUTE = "/api/account";
const PROVIDER_BUDGET = 60;
const PROVIDER_WINDOW_MS = 60_000;
/**
 * `uncachedSeconds`: how long distinct pages are asked of the three instances (`uncachedConnections` in all, each
 * asking its next page as soon as the last was answered): well over 60 requests a minute either way.
 */
const SIZES = {
  default: { seconds: 10, connections: 24, uncachedSeconds: 75, uncachedConnections: 6 },
  smoke: { seconds: 2, connections: 12, uncachedSeconds: 20, uncachedConnections: 6 },
};
/** Rows per page of the uncached phase: 3 000 transactions give 600 distinct pages, more than any run asks. */
const UNCACHED_PAGE_SIZE = 5;

export async function runClusterPart(ctx: BenchContext): Promise<void> {
  const size = ctx.options.smoke ? SIZES.smoke : SIZES.default;
  const [sandbox, redis] = await Promise.all([
    startSandbox({
      db: seededDatabase({ transactions: 3_000, stations: 400 }, ctx.options.reseed),
      log: true,
      // --control: /sandbox/requests lists each upstream request with its arrival time (the busiest window).
      args: ["--budget", String(PROVIDER_BUDGET), "--control"],
    }),
    startBenchRedis("redis-server (cluster)"),
  ]);
  const stopSandbox = register("the sandbox (cluster)", () => sandbox.stop());
  const stopRedis = () => redis.stop();
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
    await addUncachedPhase(ctx, sandbox.baseUrl, apps, headers, size);
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

/**
 * Distinct transaction pages (no cache answers them: each is one upstream call) asked of the three instances in turn,
 * `uncachedConnections` at a time for `uncachedSeconds`, far faster than 60 a minute: the upstream's 429s (goal 0) and
 * the busiest 60-second window of upstream requests, by the sandbox's own arrival times. Requests still waiting for a
 * budget slot when the phase ends are abandoned (the browser left), which releases their place in the queue.
 */
async function addUncachedPhase(
  ctx: BenchContext,
  baseUrl: string,
  apps: App[],
  headers: Record<string, string>,
  size: { uncachedSeconds: number; uncachedConnections: number },
): Promise<void> {
  const control = `${baseUrl.replace(/\/api\/v1$/, "")}/sandbox/requests`;
  const startedAt = Date.now();
  const stop = new AbortController();
  const timer = setTimeout(() => {
    stop.abort();
  }, size.uncachedSeconds * 1000);
  const answers = new Map<string, number>();
  let page = 0;
  const ended = () => stop.signal.aborted;
  await Promise.all(
    Array.from({ length: size.uncachedConnections }, async () => {
      while (!ended()) {
        page += 1;
        const app = apps[page % apps.length];
        try {
          const res = await fetch(
            `${app?.origin ?? ""}/api/transactions?page=${String(page)}&limit=${String(UNCACHED_PAGE_SIZE)}`,
            { headers, signal: stop.signal },
          );
          await res.body?.cancel();
          answers.set(String(res.status), (answers.get(String(res.status)) ?? 0) + 1);
        } catch {
          if (!ended()) answers.set("failed", (answers.get("failed") ?? 0) + 1);
        }
      }
    }),
  );
  clearTimeout(timer);
  const served = ((await (await fetch(control)).json()) as { requests: { atMs: number; status: number }[] }).requests;
  const phase = served.filter((r) => r.atMs >= startedAt);
  const asked = [...answers.values()].reduce((sum, n) => sum + n, 0);
  const perMinute = Math.round((page / size.uncachedSeconds) * 60);
  const replies = [...answers].map(([status, n]) => `${String(n)}× ${status}`).join(", ");
  const note = `${String(page)} distinct pages asked (≈${String(perMinute)}/min) of ${String(INSTANCES)} instances by ${String(size.uncachedConnections)} clients for ${String(size.uncachedSeconds)} s; ${String(asked)} answered before the end (${replies}); upstream requests in the phase: ${String(phase.length)}`;
  ctx.add({
    part: "cluster",
    name: "Upstream 429s under uncached load over 3 instances",
    value: phase.filter((r) => r.status === 429).length,
    unit: "count",
    goal: { op: "<=", target: 0 },
    note,
  });
  ctx.add({
    part: "cluster",
    name: "Busiest 60-second window of upstream requests, uncached load",
    value: busiestWindow(
      phase.map((r) => r.atMs),
      PROVIDER_WINDOW_MS,
    ),
    unit: "count",
    goal: { op: "<=", target: PROVIDER_BUDGET },
    note: `one key, the sandbox's arrival times; the provider allows ${String(PROVIDER_BUDGET)} a minute. ${note}`,
  });
}
