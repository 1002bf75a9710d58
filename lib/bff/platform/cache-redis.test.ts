import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type RedisServer, startRedisServer } from "@/test/redis-server";

import { cacheKey, TtlCache } from "./cache";
import { RedisCacheStore } from "./cache-redis";

// The short caches shared through a real redis-server (issue 17): a second instance's cache answers from Redis without
// loading, for what the entry has left of its TTL; names hold no readable input; a Redis outage degrades to caching
// in process, with one log line, never an error.

const CUSTOMER = "Q2hlY2tzdW0tb2YtYS1rZXktcGFpcg"; // a credential hash (base64url)

/** Test setup: the entries these tests share are declared shared where they are used (list, account, catalog). */
const SHARED = { shared: true };

describe("TtlCache over RedisCacheStore", () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  const connect = () => {
    const redis = new Redis(server.url, { maxRetriesPerRequest: 1, commandTimeout: 1_000, connectTimeout: 1_000 });
    redis.on("error", () => undefined);
    clients.push(redis);
    return redis;
  };
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    for (const redis of clients) redis.disconnect();
    await server.stop();
  });

  it("serves another instance's entry without loading, for the TTL it has left; names are hashed; forget drops them", async () => {
    const one = new TtlCache(100, new RedisCacheStore(connect()));
    const two = new TtlCache(100, new RedisCacheStore(connect()));
    const key = cacheKey(CUSTOMER, "transactions", { search: "Jane Driver" });
    let loads = 0;
    const load = () => {
      loads++;
      return Promise.resolve({ items: [{ id: "t1", gallons: 12.5 }], total: 1 });
    };
    const first = await one.get(key, 60_000, load, undefined, SHARED);
    // The write to Redis is not awaited by the caller: wait until it is there.
    const observer = connect();
    while ((await observer.keys("ffd:cache:*")).length === 0) await new Promise((r) => setTimeout(r, 20));
    expect(await two.get(key, 60_000, load, undefined, SHARED)).toEqual(first);
    expect(loads).toBe(1);
    const names = await observer.keys("ffd:cache:*");
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(new RegExp(`^ffd:cache:${CUSTOMER}:[A-Za-z0-9_-]{43}$`));
    expect(names[0]).not.toContain("Jane");
    const ttl = await observer.pttl(names[0] ?? "");
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Not shared: what is not declared shared (values that may not be plain JSON) stays in process.
    await one.get(cacheKey(CUSTOMER, "station-detail", "S1"), 60_000, () => Promise.resolve(1));
    expect(await observer.keys("ffd:cache:*")).toHaveLength(1);
    one.forget(CUSTOMER);
    while ((await observer.keys("ffd:cache:*")).length > 0) await new Promise((r) => setTimeout(r, 20));
  });

  it("degrades to caching in process while Redis is down: answers, one log line, no error", async () => {
    const own = await startRedisServer();
    const redis = new Redis(own.url, { maxRetriesPerRequest: 1, commandTimeout: 1_000, connectTimeout: 1_000 });
    redis.on("error", () => undefined);
    clients.push(redis);
    const lines: string[] = [];
    const c = new TtlCache(100, new RedisCacheStore(redis, (level, message) => lines.push(`${level} ${message}`)));
    await own.stop({ crash: true });
    let loads = 0;
    const load = () => Promise.resolve(++loads);
    expect(await c.get(cacheKey(CUSTOMER, "account"), 60_000, load, undefined, SHARED)).toBe(1);
    expect(await c.get(cacheKey(CUSTOMER, "account"), 60_000, load, undefined, SHARED)).toBe(1); // the in-process entry
    expect(await c.get(cacheKey(CUSTOMER, "locations", "all"), 60_000, load, undefined, SHARED)).toBe(2);
    expect(await c.get(cacheKey(CUSTOMER, "transactions", { page: 2 }), 60_000, load, undefined, SHARED)).toBe(3);
    // Wait for the writes to have failed too (they are not awaited by the callers).
    await new Promise((r) => setTimeout(r, 1_500));
    expect(lines.filter((l) => l.includes("unreachable"))).toEqual([
      "warn shared cache (Redis) unreachable: caching in this process only until it is back",
    ]);
  });
});
