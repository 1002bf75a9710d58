import { randomBytes } from "node:crypto";

import fc from "fast-check";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type RedisServer, startRedisServer } from "@/test/redis-server";

import { type Priority, RequestBudget, reserveOf } from "./budget";
import type { BudgetStore } from "./budget-store";
import { RedisBudgetStore } from "./budget-store-redis";
import { systemClock } from "./clock";
import { isFleetApiError } from "./errors";
import { FakeClock } from "./fixtures/fake-clock";

/*
 * The request budget shared by several instances through a real redis-server: each "instance" is its own
 * RequestBudget over its own RedisBudgetStore and its own ioredis connection, as separate processes would be.
 */

const T0 = Date.UTC(2025, 0, 6, 8, 0, 0);

/** Waits (polling) until `ready()` holds: Redis answers over a socket, so a fake clock's settling is not enough. */
async function until(ready: () => boolean, what: string): Promise<void> {
  for (let i = 0; !ready(); i++) {
    if (i > 2_000) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Moves the fake clock on until every promise has settled (each wake-up may ask Redis before sleeping again). */
async function settle(clock: FakeClock, promises: Promise<unknown>[]): Promise<void> {
  let pending = promises.length;
  for (const p of promises) void p.finally(() => pending--);
  for (let i = 0; pending > 0; i++) {
    if (i > 2_000) throw new Error("the waiters were never served");
    await clock.advance(250);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A store that records what it granted (the store's own time of each grant) and answers how often it refused. */
function recording(store: BudgetStore, grants: { at: number; who: string }[], who: string) {
  let refusals = 0;
  const wrapped: BudgetStore = {
    tryAcquire: async (...args) => {
      const attempt = await store.tryAcquire(...args);
      if (attempt.granted) grants.push({ at: args[1], who });
      else refusals++;
      return attempt;
    },
    pauseUntil: (...args) => store.pauseUntil(...args),
    count: (...args) => store.count(...args),
    pausedUntil: (...args) => store.pausedUntil(...args),
    learned: (...args) => store.learned(...args),
    setLearned: (...args) => store.setLearned(...args),
  };
  return { store: wrapped, refusals: () => refusals };
}

describe("RedisBudgetStore: one key's budget over several instances (real redis-server)", () => {
  let server: RedisServer;
  const connections: Redis[] = [];
  const namingKey = randomBytes(32);
  const connect = (url = server.url): Redis => {
    const redis = new Redis(url, { maxRetriesPerRequest: 1 });
    redis.on("error", () => undefined); // a dead server is what one test is about; its commands report it
    connections.push(redis);
    return redis;
  };
  /** A fresh key per test, so tests never see each other's logs. */
  const newKey = () => `key-${randomBytes(6).toString("hex")}`;

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    for (const redis of connections) redis.disconnect();
    await server.stop();
  });

  it("keeps every window within budget over all instances, and serves everyone who stays", async () => {
    const scenario = fc.record({
      instances: fc.integer({ min: 2, max: 3 }),
      // Above reserveOf's floor of 5, so reserve-keeping callers get a share of the window too.
      budget: fc.integer({ min: 6, max: 8 }),
      windowMs: fc.integer({ min: 150, max: 250 }),
      callers: fc.array(
        fc.record({
          instance: fc.nat(2),
          priority: fc.constantFrom<Priority>("interactive", "bulk"),
          keepReserve: fc.constantFrom(false, false, false, true),
          arriveAt: fc.integer({ min: 0, max: 200 }),
          abortAfter: fc.option(fc.integer({ min: 0, max: 200 }), { freq: 4 }),
        }),
        // More callers than one window's budget, so instances that did not share it would exceed it.
        { minLength: 12, maxLength: 20 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ instances, budget, windowMs, callers }) => {
        const key = newKey();
        const grants: { at: number; who: string }[] = [];
        const budgets = Array.from({ length: instances }, (_, i) => {
          const store = new RedisBudgetStore(connect(), { namingKey, clock: systemClock });
          // No margin: the property is checked on the store's own times, at exactly the window it was asked for.
          return new RequestBudget({
            budget,
            windowMs,
            safetyMarginMs: 0,
            store: recording(store, grants, `instance ${String(i)}`).store,
          });
        });
        const outcomes = await Promise.all(
          callers.map(async (caller) => {
            await new Promise((r) => setTimeout(r, caller.arriveAt));
            const controller = new AbortController();
            const timer =
              caller.abortAfter === null
                ? undefined
                : setTimeout(() => {
                    controller.abort(new Error("left"));
                  }, caller.abortAfter);
            const requestBudget = budgets[caller.instance % instances];
            try {
              await requestBudget?.acquire(key, caller.priority, controller.signal, caller.keepReserve);
              return "granted";
            } catch (error) {
              return controller.signal.aborted ? "left" : error;
            } finally {
              clearTimeout(timer);
            }
          }),
        );
        // Everyone who did not leave was served (a reserve-keeping caller only once its share of the window is free).
        for (const outcome of outcomes) expect(["granted", "left"]).toContain(outcome);
        // Any budget + 1 grants over ALL instances lie at least a window apart (by the times the store judged them).
        const times = grants.map((g) => g.at).sort((a, b) => a - b);
        for (let i = 0; i + budget < times.length; i++) {
          expect((times[i + budget] ?? 0) - (times[i] ?? 0)).toBeGreaterThanOrEqual(windowMs);
        }
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it("a 429 seen by one instance pauses the key on every instance", async () => {
    const key = newKey();
    const clock = new FakeClock(T0);
    const grants: { at: number; who: string }[] = [];
    const a = new RequestBudget({ clock, store: new RedisBudgetStore(connect(), { namingKey, clock }) });
    const bStore = recording(new RedisBudgetStore(connect(), { namingKey, clock }), grants, "b");
    const b = new RequestBudget({ clock, store: bStore.store });
    await a.noteRateLimited(key, 5_000);

    let granted = false;
    const acquired = b.acquire(key, "interactive").then(() => (granted = true));
    await until(() => bStore.refusals() > 0, "B asked the store");
    expect(granted).toBe(false);
    await clock.advance(5_000); // the pause's end, but not its safety margin: B sleeps on
    await new Promise((r) => setTimeout(r, 20));
    expect(granted).toBe(false);
    await clock.advance(250);
    await acquired;
    expect(grants).toEqual([{ at: T0 + 5_250, who: "b" }]);
  });

  it("a budget A lowered is never raised again by B deciding on what it read before (two stores racing)", async () => {
    const key = newKey();
    const clock = new FakeClock(T0);
    const a = new RequestBudget({ clock, store: new RedisBudgetStore(connect(), { namingKey, clock }) });
    const bStore = new RedisBudgetStore(connect(), { namingKey, clock });
    // The interleaving two instances meet by chance, made certain: B reads the learned budget (none yet), then A
    // stores the one its 429 taught it (10), then B stores its own, higher one (40) decided on what it had read.
    let raced = false;
    const racing: BudgetStore = {
      tryAcquire: (...args) => bStore.tryAcquire(...args),
      pauseUntil: (...args) => bStore.pauseUntil(...args),
      count: (...args) => bStore.count(...args),
      pausedUntil: (...args) => bStore.pausedUntil(...args),
      learned: async (...args) => {
        const read = await bStore.learned(...args);
        if (!raced) {
          raced = true;
          await a.learnBudget(key, 10);
        }
        return read;
      },
      setLearned: (...args) => bStore.setLearned(...args),
    };
    const b = new RequestBudget({ clock, store: racing });
    await b.learnBudget(key, 40);
    expect(raced).toBe(true);
    expect(await a.budgetOf(key)).toBe(10);
    expect(await b.budgetOf(key)).toBe(10);
    // Lower still is stored, whoever learns it.
    await b.learnBudget(key, 4);
    expect(await a.budgetOf(key)).toBe(4);
  });

  it("A's background work keeps the reserve for B's clicks; B's waiting click goes before A's bulk work", async () => {
    const key = newKey();
    const budget = 12;
    // One clock per instance (both read the same time), so the test decides which instance wakes first.
    const clockA = new FakeClock(T0);
    const clockB = new FakeClock(T0);
    const grants: { at: number; who: string }[] = [];
    const aStore = recording(new RedisBudgetStore(connect(), { namingKey, clock: clockA }), grants, "a");
    const a = new RequestBudget({ budget, clock: clockA, store: aStore.store });
    const bStore = recording(new RedisBudgetStore(connect(), { namingKey, clock: clockB }), grants, "b");
    const b = new RequestBudget({ budget, clock: clockB, store: bStore.store });

    // A's background work (keeps the reserve) takes what it may of the window, and more waits.
    const background = Array.from({ length: 10 }, () => a.acquire(key, "bulk", undefined, true));
    const allowed = budget - reserveOf(budget);
    await until(() => grants.length === allowed && aStore.refusals() > 0, "A's background work took its share");
    // B's clicks get the reserve at once, on the same window.
    const clicks = Array.from({ length: reserveOf(budget) }, () => b.acquire(key, "interactive"));
    await Promise.all(clicks);
    expect(grants.filter((g) => g.who === "b")).toHaveLength(reserveOf(budget));
    expect(grants.every((g) => g.at === T0)).toBe(true);

    // The window is full: A's plain bulk work (no reserve kept) and one more click of B wait for the same slots.
    const bulk = a.acquire(key, "bulk");
    const refusedBefore = bStore.refusals();
    const click = b.acquire(key, "interactive");
    await until(() => bStore.refusals() > refusedBefore, "B's click was refused (window full)");
    // The whole window leaves at once. A wakes first and asks first: it must not take the slot B's click waits for.
    const askedBefore = aStore.refusals() + grants.length;
    await clockA.advanceTo(T0 + 60_250);
    await until(() => aStore.refusals() + grants.length > askedBefore, "A asked for a slot");
    expect(grants.filter((g) => g.at > T0)).toEqual([]);
    await clockB.advanceTo(T0 + 60_250);
    await click;
    expect(grants.find((g) => g.at > T0)?.who).toBe("b");
    // Then A's work goes on (one more click, at most, could have come first: B's next one would mark the key again).
    clockB.advanceTo(T0 + 10 * 60_250).catch(() => undefined);
    await settle(clockA, [bulk, ...background]);
  });

  it("fails closed when Redis dies: acquire rejects with shared_state_unavailable and nothing is granted", async () => {
    const own = await startRedisServer();
    const key = newKey();
    const grants: { at: number; who: string }[] = [];
    const budget = new RequestBudget({
      budget: 5,
      store: recording(new RedisBudgetStore(connect(own.url), { namingKey }), grants, "a").store,
    });
    await budget.acquire(key, "interactive");
    await own.stop({ crash: true });
    const waiting = [budget.acquire(key, "interactive"), budget.acquire(key, "bulk")];
    for (const result of await Promise.allSettled(waiting)) {
      expect(result.status).toBe("rejected");
      const reason = result.status === "rejected" ? (result.reason as unknown) : undefined;
      expect(isFleetApiError(reason) && reason.code).toBe("shared_state_unavailable");
    }
    expect(grants).toHaveLength(1);
    await expect(budget.sentInWindow(key)).rejects.toMatchObject({ code: "shared_state_unavailable" });
  });
});
