import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type RedisServer, startRedisServer } from "@/test/redis-server";

import { BffError } from "../http/errors";
import { GuardedSqliteStore, RedisRevocationStore, type RevocationStore, SqliteRevocationStore } from "./revocations";

// The SQLite store on a real file, and the Redis store against a real redis-server (Debian's package; .ci/run
// installs it), on a free port.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(["sqlite", "redis"] as const)("revocation store (%s)", (kind) => {
  let store: RevocationStore;
  let dir: string | undefined;
  let server: RedisServer | undefined;
  let redis: Redis | undefined;

  beforeAll(async () => {
    if (kind === "sqlite") {
      dir = mkdtempSync(join(tmpdir(), "ffd-revocations-"));
      store = new SqliteRevocationStore(join(dir, "sessions.db"));
      return;
    }
    server = await startRedisServer();
    redis = new Redis({ port: server.port, host: "127.0.0.1", maxRetriesPerRequest: 1 });
    store = new RedisRevocationStore(redis);
  });
  afterAll(async () => {
    if (store instanceof SqliteRevocationStore) store.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    await redis?.quit();
    await server?.stop();
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
    await sleep(300);
    expect(await store.isRevoked("sid-c")).toBe(false);
  });

  it("is seen by a second client of the same store (another process, another instance)", async () => {
    const client =
      kind === "redis"
        ? new Redis({ port: redis?.options.port ?? 0, host: "127.0.0.1", maxRetriesPerRequest: 1 })
        : undefined;
    const other =
      client === undefined
        ? new SqliteRevocationStore(join(dir ?? "", "sessions.db"))
        : new RedisRevocationStore(client);
    try {
      await store.revoke("sid-shared", Date.now() + 60_000);
      expect(await other.isRevoked("sid-shared")).toBe(true);
    } finally {
      if (other instanceof SqliteRevocationStore) other.close();
      await client?.quit();
    }
  });
});

describe("SqliteRevocationStore", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "ffd-revocations-"));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps revocations across a reopen of the file (an app restart), creating its folder", async () => {
    const path = join(dir, "nested", ".data", "sessions.db");
    const first = new SqliteRevocationStore(path);
    await first.revoke("sid-restart", Date.now() + 60_000);
    first.close();
    const second = new SqliteRevocationStore(path);
    expect(await second.isRevoked("sid-restart")).toBe(true);
    expect(await second.isRevoked("sid-other")).toBe(false);
    second.close();
  });

  it("never shortens a revocation when the same id is revoked again", async () => {
    const store = new SqliteRevocationStore(join(dir, "twice.db"));
    await store.revoke("sid-x", Date.now() + 60_000);
    await store.revoke("sid-x", Date.now() + 10);
    await sleep(50);
    expect(await store.isRevoked("sid-x")).toBe(true);
    store.close();
  });

  it("prunes expired entries (on every revoke and on open), so the file stays bounded", async () => {
    const path = join(dir, "prune.db");
    const store = new SqliteRevocationStore(path);
    for (let i = 0; i < 50; i++) await store.revoke(`short-${String(i)}`, Date.now() + 100);
    await store.revoke("long", Date.now() + 60_000);
    expect(store.size()).toBe(51);
    await sleep(250);
    // The next revoke sweeps the 50 whose time has passed; the live ones stay.
    await store.revoke("another", Date.now() + 60_000);
    expect(store.size()).toBe(2);
    expect(await store.isRevoked("long")).toBe(true);
    expect(await store.isRevoked("short-0")).toBe(false);

    await store.revoke("short-again", Date.now() + 100);
    store.close();
    await sleep(250);
    const reopened = new SqliteRevocationStore(path);
    expect(reopened.size()).toBe(2);
    expect(reopened.prune()).toBe(0);
    reopened.close();
  });
});

describe("GuardedSqliteStore (the store the app uses without REDIS_URL)", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "ffd-revocations-guarded-"));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("a session file that cannot be opened is a 503 the person can retry (never a 500), and the next call opens it once it can", async () => {
    // A file where the folder should be: the open fails (a fault produced for real, no mock).
    const blocker = join(dir, "not-a-folder");
    writeFileSync(blocker, "x");
    const store = new GuardedSqliteStore(join(blocker, "sessions.db"));
    const error = await store.isRevoked("sid").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BffError);
    expect((error as BffError).code).toBe("shared_state_unavailable");
    expect((error as BffError).message).toMatch(/try again/);
    await expect(store.revoke("sid", Date.now() + 60_000)).rejects.toBeInstanceOf(BffError);

    // Once the folder is there, the same store works (it was not cached broken).
    rmSync(blocker);
    await store.revoke("sid", Date.now() + 60_000);
    expect(await store.isRevoked("sid")).toBe(true);
    expect(await store.isRevoked("other")).toBe(false);
  });
});
