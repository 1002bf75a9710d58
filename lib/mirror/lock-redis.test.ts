import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { MirrorStore, MirrorSync } from "@/lib/mirror";
import {
  mirrorStoresOfThisFile,
  type MirrorUpstream,
  PAGE_SIZE,
  startMirrorUpstream,
  upstreamWalk,
  WINDOW_MS,
} from "@/test/mirror-stack";
import { type RedisServer, startRedisServer } from "@/test/redis-server";

import { RedisSyncLock, syncLockKey } from "./lock-redis";

// Two instances' syncs on one PostgreSQL mirror, sharing a real redis-server for the sync lock (issue 17): one syncs a
// customer at a time; when the holder dies, the other takes over once the lease expires, and the mirror ends equal to
// the upstream (no row lost or doubled). The real sandbox in both profiles, a real PostgreSQL, a real redis-server.

const LEASE_MS = 3_000;
const openStore = mirrorStoresOfThisFile();

describe.each(["primary", "alternative"] as const)("the Redis sync lock (%s profile, postgres store)", (profile) => {
  let stack: MirrorUpstream;
  let redisServer: RedisServer;
  const clients: Redis[] = [];
  const connect = () => {
    const redis = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
    redis.on("error", () => undefined);
    clients.push(redis);
    return redis;
  };
  beforeAll(async () => {
    [stack, redisServer] = await Promise.all([startMirrorUpstream(profile), startRedisServer()]);
  }, 120_000);
  afterAll(async () => {
    for (const redis of clients) redis.disconnect();
    await redisServer.stop();
    await stack.upstream.stop();
  });
  /** One app instance's sync: its own Redis connection and lock, the shared store. */
  const instance = (store: Parameters<MirrorUpstream["newSync"]>[0], redis: Redis) =>
    new MirrorSync({
      store,
      client: stack.client,
      pageSize: PAGE_SIZE,
      windowMs: WINDOW_MS,
      lock: new RedisSyncLock(redis, { leaseMs: LEASE_MS }),
    });

  it("lets one instance sync a customer at a time, and frees the customer on release", async () => {
    const store = await openStore("postgres");
    try {
      const [a, b] = [instance(store, connect()), instance(store, connect())];
      const outcomes = await Promise.all([
        a.run("CHI", stack.chi, { phases: ["head"] }),
        b.run("CHI", stack.chi, { phases: ["head"] }),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(["busy", "done"]);
      // Released by compare-and-delete: the next run does not wait for the lease.
      expect(await connect().exists(syncLockKey("CHI"))).toBe(0);
      expect((await b.run("CHI", stack.chi, { phases: ["head"] })).status).toBe("done");
    } finally {
      await store.close();
    }
  }, 120_000);

  it("hands the sync to another instance when the holder dies mid-backfill: no row lost or doubled", async () => {
    const store = await openStore("postgres");
    try {
      const redisA = connect();
      const a = instance(store, redisA);
      const b = instance(store, connect());
      const dies = new AbortController();
      // The holder "dies" mid-backfill: its Redis connection drops (no renewal, no release reaches Redis), and its
      // sync stops writing — as a killed process would. The lease stays in Redis until it expires.
      const outcomeA = await a.run("PFL", stack.pfl, {
        signal: dies.signal,
        onProgress: (p) => {
          if (p.phase === "backfill" && p.rowsDone > 0 && !dies.signal.aborted) {
            redisA.disconnect();
            dies.abort();
          }
        },
      });
      expect(outcomeA.status).toBe("aborted");
      const observer = connect();
      expect(await observer.exists(syncLockKey("PFL"))).toBe(1);
      // The other instance takes over once the lease has expired (busy until then).
      let outcomeB = await b.run("PFL", stack.pfl);
      while (outcomeB.status === "busy") {
        await new Promise((r) => setTimeout(r, 250));
        outcomeB = await b.run("PFL", stack.pfl);
      }
      expect(outcomeB.status).toBe("done");
      const rows = await store.allTransactions("PFL");
      expect(new Set(rows.map((t) => t.id)).size).toBe(rows.length);
      expect(rows).toEqual(await upstreamWalk(stack.client, stack.pfl));
    } finally {
      await store.close();
    }
  }, 180_000);

  it("a holder whose lease was taken over stops writing at once, and leaves the new holder's lease alone", async () => {
    const store = await openStore("postgres");
    try {
      const observer = connect();
      let writes = 0;
      // After the first write batch another instance holds the customer's lease (as after an expiry and a takeover).
      const watched = afterEachWrite(store, async () => {
        writes++;
        if (writes === 1) await observer.set(syncLockKey("PFL"), "another-instance", "PX", 60_000);
      });
      const a = new MirrorSync({
        store: watched,
        client: stack.client,
        pageSize: PAGE_SIZE,
        windowMs: WINDOW_MS,
        lock: new RedisSyncLock(connect(), { leaseMs: 60_000 }), // no renewal tick during the run: only the check
      });
      expect((await a.run("PFL", stack.pfl)).status).toBe("busy");
      expect(writes).toBe(1);
      expect(await observer.get(syncLockKey("PFL"))).toBe("another-instance");
    } finally {
      await store.close();
    }
  }, 120_000);
});

/** The store, with `then` run after each of its write transactions (the sync writes only through transactions here). */
function afterEachWrite(store: MirrorStore, then: () => Promise<void>): MirrorStore {
  return new Proxy(store, {
    get(target, prop) {
      if (prop === "transaction") {
        const transaction: MirrorStore["transaction"] = async (fn) => {
          const result = await target.transaction(fn);
          await then();
          return result;
        };
        return transaction;
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
