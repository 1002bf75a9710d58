/**
 * Part 10: what sharing the request budget through Redis costs (issue 17). Each upstream call first takes a slot of
 * its key's budget; with REDIS_URL that is one round trip to Redis running one Lua script (prune + count + add). The
 * figure is the added latency per acquire on loopback (a real redis-server, started here), p50 and p95, against the
 * in-process store; goal p50 ≤ 1 ms. Three "instances" (budgets over their own connections) take turns on one key,
 * as several app processes would.
 */
import { randomBytes } from "node:crypto";

import { Redis } from "ioredis";

import { RequestBudget } from "@/lib/fleet-api/budget";
import { MemoryBudgetStore } from "@/lib/fleet-api/budget-store";
import { RedisBudgetStore } from "@/lib/fleet-api/budget-store-redis";

import type { BenchContext } from "../lib/context";
import { percentile } from "../lib/report";
import { startBenchRedis } from "../lib/services";

const SIZES = { default: { acquires: 6_000, warmup: 300 }, smoke: { acquires: 300, warmup: 30 } };
const INSTANCES = 3;
/** High enough that no acquire waits for the window: what is measured is the store's own cost. */
const NEVER_FULL = 1_000_000;

/** Milliseconds of each `acquire` of one key, taken in turn by the budgets. */
async function timeAcquires(budgets: RequestBudget[], count: number, warmup: number): Promise<number[]> {
  const key = `bench-${randomBytes(6).toString("hex")}`;
  const times: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const budget = budgets[i % budgets.length];
    const started = performance.now();
    await budget?.acquire(key, i % 4 === 0 ? "bulk" : "interactive");
    if (i >= warmup) times.push(performance.now() - started);
  }
  return times;
}

export function runClusterBudgetPart(ctx: BenchContext): Promise<void> {
  return addSharedBudgetLatency(ctx, "cluster-budget");
}

/** The Redis budget's added latency per acquire (p50 with its goal, p95) and the in-process p50, under `part`. */
export async function addSharedBudgetLatency(ctx: BenchContext, part: "cluster-budget" | "cluster"): Promise<void> {
  const size = ctx.options.smoke ? SIZES.smoke : SIZES.default;
  const server = await startBenchRedis();
  const stopServer = () => server.stop();
  const connections = Array.from({ length: INSTANCES }, () => new Redis(server.url));
  try {
    const namingKey = randomBytes(32);
    const shared = connections.map(
      (redis) => new RequestBudget({ budget: NEVER_FULL, store: new RedisBudgetStore(redis, { namingKey }) }),
    );
    const memory = [new RequestBudget({ budget: NEVER_FULL, store: new MemoryBudgetStore() })];
    const redisTimes = await timeAcquires(shared, size.acquires, size.warmup);
    const memoryTimes = await timeAcquires(memory, size.acquires, size.warmup);
    const note = `${String(size.acquires)} acquires of one key, taken in turn by ${String(INSTANCES)} budgets over their own connections to one redis-server on loopback, after ${String(size.warmup)} unmeasured; added = Redis store − in-process store at the same percentile`;
    for (const p of [50, 95]) {
      const added = percentile(redisTimes, p) - percentile(memoryTimes, p);
      ctx.add({
        part,
        name: `Added latency of the Redis budget per acquire, p${String(p)}`,
        value: Number(added.toFixed(3)),
        unit: "ms",
        goal: p === 50 ? { op: "<=", target: 1 } : null,
        note,
      });
    }
    ctx.add({
      part,
      name: "Acquire with the in-process store, p50",
      value: Number(percentile(memoryTimes, 50).toFixed(4)),
      unit: "ms",
      note: "the same acquires on MemoryBudgetStore (one instance, no REDIS_URL)",
    });
  } finally {
    for (const redis of connections) redis.disconnect();
    await stopServer();
  }
}
