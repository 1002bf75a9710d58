import { randomBytes } from "node:crypto";

import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type RedisServer, startRedisServer } from "@/test/redis-server";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import { RequestBudget } from "./budget";
import { RedisBudgetStore } from "./budget-store-redis";
import { FleetApiClient } from "./client";
import { isFleetApiError } from "./errors";
import { resetVariants } from "./negotiation";

/*
 * A 429 one instance meets holds every instance (issue 17): the pause its Retry-After asks for and the lower budget
 * it reveals live in Redis beside the send log, not in the memory of the instance that met it. Two "instances"
 * (FleetApiClient objects with their own memory and Redis connection) against the real sandbox, whose budget (4 a
 * day) is lower than the one the dashboard is configured with (10 a day), so the provider answers 429.
 */

const PROVIDER_BUDGET = 4;
const CONFIGURED_BUDGET = 10;
/**
 * A day: the sandbox's windows are fixed (they start at multiples of the window on the clock), so its Retry-After is
 * the time to the next UTC midnight — longer than a person is kept waiting (30 s) except in a day's last 30 s.
 */
const PROVIDER_WINDOW_SECONDS = 86_400;

describe.each(["primary", "alternative"] as const)("a 429 shared by every instance (%s profile)", (profile) => {
  let upstream: SandboxProcess;
  let server: RedisServer;
  const connections: Redis[] = [];
  const namingKey = randomBytes(32);
  const instance = (): FleetApiClient => {
    const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
    redis.on("error", () => undefined);
    connections.push(redis);
    return new FleetApiClient({
      baseUrl: upstream.baseUrl,
      budget: new RequestBudget({
        budget: CONFIGURED_BUDGET,
        windowMs: PROVIDER_WINDOW_SECONDS * 1000,
        store: new RedisBudgetStore(redis, { namingKey }),
      }),
    });
  };
  const requests = () => [...upstream.output().matchAll(/\[sandbox\] (GET|POST) \/api\/v1\//g)].length;

  beforeAll(async () => {
    [upstream, server] = await Promise.all([
      startSandboxProcess({
        profile,
        log: true,
        args: ["--budget", String(PROVIDER_BUDGET), "--window-seconds", String(PROVIDER_WINDOW_SECONDS)],
      }),
      startRedisServer(),
    ]);
    resetVariants();
  });
  afterAll(async () => {
    for (const redis of connections) redis.disconnect();
    await Promise.all([upstream.stop(), server.stop()]);
  });

  it("the other instance knows the pause and the lower budget, and tells a person the wait without asking upstream", async () => {
    const pair = upstream.keys["demo-full"];
    const [a, b] = [instance(), instance()];
    // Instance A spends more than the provider allows: the provider's 429 asks for a wait longer than a person is kept
    // waiting, so A reports it at once.
    let refused: unknown;
    for (let i = 0; i < CONFIGURED_BUDGET && refused === undefined; i++) {
      await a.getAccount(pair).catch((error: unknown) => (refused = error));
    }
    expect(isFleetApiError(refused) && refused.code).toBe("rate_limited");
    const use = await b.budgetUse(pair);
    expect(use.pausedForMs).toBeGreaterThan(30_000);
    expect(use.budget).toBeLessThan(CONFIGURED_BUDGET);
    expect(use.budget).toBeGreaterThanOrEqual(1);
    // Instance B's click gets the wait at once, and nothing reaches the provider.
    const before = requests();
    const clicked = await b.getAccount(pair).catch((error: unknown) => error);
    expect(isFleetApiError(clicked) && clicked.code).toBe("rate_limited");
    expect(isFleetApiError(clicked) && (clicked.retryAfterSeconds ?? 0) > 30).toBe(true);
    expect(requests()).toBe(before);
  }, 20_000);
});
