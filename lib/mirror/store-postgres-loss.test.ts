import { describe, expect, it } from "vitest";

import { startPostgresServer } from "@/test/postgres-server";

import { MirrorStore } from "./store";

// PostgreSQL going away while the pool holds idle connections must not end the process (pg emits "error" on the pool
// for an idle client; without a listener Node throws it): the next query fails instead, and its caller reports it.

describe("the PostgreSQL mirror store when the server goes away", () => {
  it("keeps the process alive and fails the next query", async () => {
    const server = await startPostgresServer();
    const store = await MirrorStore.open({ databaseUrl: await server.createDatabase("loss") });
    expect(await store.getSyncState("c1")).toMatchObject({ customerId: "c1" });
    await server.stop();
    // Give the idle client time to notice: its "error" event fires now (an uncaught one would fail this run).
    await new Promise((r) => setTimeout(r, 500));
    await expect(store.getSyncState("c1")).rejects.toThrow();
    await store.close().catch(() => undefined);
  }, 60_000);
});
