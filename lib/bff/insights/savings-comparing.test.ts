import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { savingsConfig } from "@/lib/insights/savings-config";
import { savingsFor } from "@/lib/insights/savings-query";
import { comparisonsState } from "@/lib/insights/savings-stored";
import { readCatalog, recordCatalogWalk } from "@/lib/mirror";
import { MIRROR_CASES } from "@/test/mirror-stack";
import { type PostgresServer, startPostgresServer } from "@/test/postgres-server";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import { runWithQuery } from "../http/operation";
import { operationContextForTest, useUpstreamForTest } from "../http/test-context";
import { fleetApi } from "../platform/upstream";
import { syncedMirrorForTest, type TestMirror } from "../transactions/test-mirror";
import { getSavings, REQUEST_COMPARE_LIMIT } from "./savings";

// Issue 25: the stored savings comparisons are computed in the background, never all on a request. A real mirror
// synced from the real sandbox (both profiles) into both real stores: right after the sync every completed fill is
// pending (as after the migration or a large sync), and GET /api/savings answers without computing them, saying how
// many are pending; once the background loop (the app's, lib/bff/sync/comparisons) has run, the reply says nothing
// is pending and its figures are exactly savingsFor's over the mirror's rows and recorded catalog.

const RANGE = { from: "2026-06-01", to: "2026-06-15" };
const PREVIOUS = { from: "2026-05-17", to: "2026-05-31" };

let postgres: PostgresServer;
let databases = 0;
beforeAll(async () => {
  postgres = await startPostgresServer();
});
afterAll(async () => {
  await postgres.stop();
});

describe.each(MIRROR_CASES)("GET /api/savings while fills are compared (%s profile, %s store)", (profile, kind) => {
  let sb: SandboxProcess;
  let mirror: TestMirror;
  let kicks = 0;
  beforeAll(async () => {
    sb = await startSandboxProcess({ profile, args: ["--budget", "100000"] });
    useUpstreamForTest(sb.baseUrl, { FLEET_API_BUDGET: "100000" });
    const databaseUrl = kind === "postgres" ? await postgres.createDatabase(`cmp_${String(++databases)}`) : undefined;
    mirror = await syncedMirrorForTest(sb.keys["demo-full"], databaseUrl === undefined ? {} : { databaseUrl });
    // A catalog walk recorded as the app records one (the request then finds it and walks no other).
    const catalog = await fleetApi().listAllLocations(sb.keys["demo-full"], {}, { priority: "interactive" });
    await recordCatalogWalk(mirror.access.store, mirror.access.customerId, catalog, Date.now());
  });
  afterAll(async () => {
    await mirror.close();
    await sb.stop();
  });

  it("answers with how many fills are pending, computing none of them itself", async () => {
    const { store, customerId } = mirror.access;
    const params = { radiusMiles: savingsConfig().radiusMiles, windowMs: savingsConfig().windowMs };
    const before = await comparisonsState(store, customerId, params);
    // Every completed fill of the sync is pending: more than a request may compare itself.
    expect(before.pending).toBe(before.total);
    expect(before.pending).toBeGreaterThan(REQUEST_COMPARE_LIMIT);
    // The background loop is counted, not started, during this request: what the request computed shows alone.
    const ctx = operationContextForTest(sb.keys["demo-full"], {
      mirror: () =>
        Promise.resolve({
          ...mirror.access,
          comparePending: () => {
            kicks++;
          },
        }),
    });
    const reply = await runWithQuery(getSavings, ctx, RANGE);
    expect(reply.catalog.state).toBe("ready");
    expect(reply.comparing).toEqual({ pending: before.pending, total: before.total });
    expect(kicks).toBe(1);
    expect(await comparisonsState(store, customerId, params)).toEqual(before);
  });

  it("after the background work, says nothing is pending and gives savingsFor's figures", async () => {
    const { store, customerId } = mirror.access;
    await mirror.comparisonsSettled();
    const reply = await runWithQuery(
      getSavings,
      operationContextForTest(sb.keys["demo-full"], { mirror: () => Promise.resolve(mirror.access) }),
      RANGE,
    );
    expect(reply.comparing).toBeNull();
    const params = { radiusMiles: savingsConfig().radiusMiles, windowMs: savingsConfig().windowMs };
    const catalog = await readCatalog(store, customerId);
    const current = await savingsFor(store, customerId, RANGE, {}, catalog, params);
    const previous = await savingsFor(store, customerId, PREVIOUS, {}, catalog, params);
    expect(reply.current).toEqual(current.figures);
    expect(reply.top).toEqual(current.top);
    expect(reply.previous.figures).toEqual(previous.figures);
    expect(reply.current.fills).toBeGreaterThan(0);
  });
});
