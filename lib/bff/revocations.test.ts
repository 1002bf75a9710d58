import { accepts, freePort } from "@/test/net";
import { spawn, type ChildProcess } from "node:child_process";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRevocationStore, RedisRevocationStore, type RevocationStore } from "./revocations";

// The Redis store against a real redis-server (Debian's package; .ci/run installs it), on a free port.


describe.each(["memory", "redis"] as const)("revocation store (%s)", (kind) => {
  let store: RevocationStore;
  let server: ChildProcess | undefined;
  let redis: Redis | undefined;

  beforeAll(async () => {
    if (kind === "memory") {
      store = new MemoryRevocationStore();
      return;
    }
    const port = await freePort();
    server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    for (let i = 0; !(await accepts(port)); i++) {
      if (i > 50) throw new Error("redis-server did not start (is Debian's redis-server installed?)");
      await new Promise((r) => setTimeout(r, 100));
    }
    redis = new Redis({ port, host: "127.0.0.1", maxRetriesPerRequest: 1 });
    store = new RedisRevocationStore(redis);
  });
  afterAll(async () => {
    await redis?.quit();
    server?.kill("SIGTERM");
  });

  it("remembers a revoked session until the given time, and only that one", async () => {
    expect(await store.isRevoked("sid-a")).toBe(false);
    await store.revoke("sid-a", Date.now() + 60_000);
    expect(await store.isRevoked("sid-a")).toBe(true);
    expect(await store.isRevoked("sid-b")).toBe(false);
  });

  it("forgets it once the cookie would have expired anyway", async () => {
    await store.revoke("sid-c", Date.now() + 150);
    expect(await store.isRevoked("sid-c")).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(await store.isRevoked("sid-c")).toBe(false);
  });
});
