import { randomBytes } from "node:crypto";

import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { type RedisServer, startRedisServer } from "@/test/redis-server";
import { startSandboxProcess } from "@/test/sandbox-process";

import { RequestBudget } from "./budget";
import { FleetApiClient } from "./client";
import { type CheckTicket, pairIdentity } from "./credential-checks";
import { RedisFailedCheckLimiter, RedisPairVerdictStore } from "./credential-checks-redis";
import { FakeClock } from "./fixtures/fake-clock";

/*
 * The failed-check allowance and the pair verdicts shared by several instances through a real redis-server: each
 * "instance" is its own limiter or store over its own ioredis connection, as separate processes would be.
 */

const T0 = Date.UTC(2025, 0, 6, 8, 0, 0);
const WINDOW_MS = 60_000;

describe("credential checks in Redis (real redis-server)", () => {
  let server: RedisServer;
  const connections: Redis[] = [];
  const connect = (url = server.url): Redis => {
    const redis = new Redis(url, { maxRetriesPerRequest: 1 });
    redis.on("error", () => undefined); // a dead server is what one test is about; its commands report it
    connections.push(redis);
    return redis;
  };
  const limiter = (clock: FakeClock, placeLeaseMs?: number) =>
    new RedisFailedCheckLimiter(connect(), {
      max: 12, // the counts below are for an allowance of 12 (the default is 16: credential-checks.ts)
      windowMs: WINDOW_MS,
      clock,
      ...(placeLeaseMs === undefined ? {} : { placeLeaseMs }),
    });
  const ticketOf = async (l: RedisFailedCheckLimiter): Promise<CheckTicket> => {
    const place = await l.tryBegin();
    if (!("ticket" in place)) throw new Error(`refused: retry after ${String(place.retryAfterMs)} ms`);
    return place.ticket;
  };

  beforeAll(async () => {
    server = await startRedisServer();
  });
  beforeEach(async () => {
    // The allowance is the address's (one set for the whole deployment): each test starts from none spent.
    await connect().flushall();
  });
  afterAll(async () => {
    for (const redis of connections) redis.disconnect();
    await server.stop();
  });

  it("two instances share one allowance: 12 failed checks in all, not 12 each", async () => {
    const clock = new FakeClock(T0);
    const [a, b] = [limiter(clock), limiter(clock)];
    for (let i = 0; i < 12; i++) await (await ticketOf(i % 2 === 0 ? a : b)).settle("failed");
    expect(await a.failuresInWindow()).toBe(12);
    const refusedOnA = await a.tryBegin();
    const refusedOnB = await b.tryBegin();
    expect(refusedOnA).toEqual({ retryAfterMs: WINDOW_MS });
    expect(refusedOnB).toEqual({ retryAfterMs: WINDOW_MS });
    // The window slides: once the first failure leaves it, one place is free again, on either instance.
    await clock.advance(WINDOW_MS);
    expect("ticket" in (await b.tryBegin())).toBe(true);
  });

  it("running checks hold their places on every instance; a passed or unanswered check gives its place back", async () => {
    const clock = new FakeClock(T0);
    const [a, b] = [limiter(clock), limiter(clock)];
    const running = await Promise.all(Array.from({ length: 12 }, (_, i) => ticketOf(i % 2 === 0 ? a : b)));
    // A burst of parallel guesses cannot overshoot: the 13th is refused while the 12 run, whichever instance asks.
    expect(await b.tryBegin()).toEqual({ retryAfterMs: 1_000 });
    await running[0]?.settle("passed");
    await running[1]?.settle("unchecked");
    await running[1]?.settle("failed"); // settled already: no effect
    expect(await a.failuresInWindow()).toBe(0);
    await ticketOf(a);
    await ticketOf(b);
    expect("retryAfterMs" in (await a.tryBegin())).toBe(true);
  });

  it("a known-good pair's failure (no place taken) counts for every instance", async () => {
    const clock = new FakeClock(T0);
    const [a, b] = [limiter(clock), limiter(clock)];
    for (let i = 0; i < 12; i++) await a.recordFailure();
    expect(await b.tryBegin()).toEqual({ retryAfterMs: WINDOW_MS });
  });

  it("a killed instance's places lapse after their lease, so they cannot hold the allowance forever", async () => {
    const clock = new FakeClock(T0);
    const dead = limiter(clock, 90_000);
    for (let i = 0; i < 12; i++) await ticketOf(dead); // never settled: the instance died mid-check
    const alive = limiter(clock, 90_000);
    expect("retryAfterMs" in (await alive.tryBegin())).toBe(true);
    await clock.advance(90_000);
    expect("ticket" in (await alive.tryBegin())).toBe(true);
  });

  it("a verdict recorded on one instance is read on another, under the one pepper they share; the key is the HMAC only", async () => {
    const clock = new FakeClock(T0);
    const pepper = randomBytes(32);
    const pair = { keyId: "fk_live_checks", secret: "wrong-secret-0123456789" };
    const [a, b] = [new RedisPairVerdictStore(connect(), { clock }), new RedisPairVerdictStore(connect(), { clock })];
    const verdict = { kind: "refused", code: "invalid_credentials", message: "The key pair was refused." } as const;
    await a.set(pairIdentity(pair, pepper), verdict, clock.now() + 15 * 60_000);
    expect(await b.get(pairIdentity(pair, pepper), clock.now())).toEqual(verdict);
    const keys = await connect().keys("*");
    expect(keys).toEqual([`ffd:verdict:${pairIdentity(pair, pepper)}`]);
    expect(keys.join()).not.toContain(pair.keyId);
    expect(JSON.stringify(await connect().get(keys[0] ?? ""))).not.toContain(pair.secret);
    // Redis ends the verdict at its time.
    expect(await connect().pttl(keys[0] ?? "")).toBeGreaterThan(14 * 60_000);
  });

  it("honours a verdict's end by the caller's clock too (an instance whose clock is ahead does not read it)", async () => {
    const clock = new FakeClock(T0);
    const store = new RedisPairVerdictStore(connect(), { clock });
    await store.set("pair", { kind: "verified" }, clock.now() + 60_000);
    expect(await store.get("pair", clock.now() + 59_999)).toEqual({ kind: "verified" });
    expect(await store.get("pair", clock.now() + 60_000)).toBeUndefined();
  });

  it("fails closed when Redis dies: no place is given, the check is refused with shared_state_unavailable", async () => {
    const own = await startRedisServer();
    const clock = new FakeClock(T0);
    const l = new RedisFailedCheckLimiter(connect(own.url), { windowMs: WINDOW_MS, clock });
    const verdicts = new RedisPairVerdictStore(connect(own.url), { clock });
    await ticketOf(l);
    await own.stop({ crash: true });
    await expect(l.tryBegin()).rejects.toMatchObject({ code: "shared_state_unavailable" });
    await expect(verdicts.get("some-pair", clock.now())).rejects.toMatchObject({ code: "shared_state_unavailable" });
  });
});

describe.each(["primary", "alternative"] as const)(
  "a client whose checks are shared through Redis, with Redis down (%s profile)",
  (profile) => {
    it("refuses a sign-in that may fail with shared_state_unavailable and sends nothing to the provider", async () => {
      const [upstream, redisServer] = await Promise.all([
        startSandboxProcess({ profile, log: true }),
        startRedisServer(),
      ]);
      const redis = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
      redis.on("error", () => undefined); // its commands report the dead server
      try {
        const client = new FleetApiClient({
          baseUrl: upstream.baseUrl,
          budget: new RequestBudget({}),
          failedChecks: new RedisFailedCheckLimiter(redis),
          verdicts: new RedisPairVerdictStore(redis),
          verdictPepper: randomBytes(32),
        });
        await redisServer.stop({ crash: true });
        const before = upstream.output().length;
        const wrong = { keyId: `ffk_${randomBytes(12).toString("hex")}`, secret: "ffs_wrong-secret" };
        await expect(client.authenticate(wrong)).rejects.toMatchObject({ code: "shared_state_unavailable" });
        const demo = upstream.keys["demo-full"];
        await expect(client.authenticate(demo)).rejects.toMatchObject({ code: "shared_state_unavailable" });
        expect(upstream.output().slice(before)).not.toMatch(/\[sandbox\] (GET|POST) /);
      } finally {
        redis.disconnect();
        await Promise.all([upstream.stop(), redisServer.stop()]);
      }
    }, 60_000);
  },
);
