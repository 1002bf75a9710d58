import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { FleetApiClient, RequestBudget } from "@/lib/fleet-api";
import { savingsConfig } from "@/lib/insights/savings-config";
import { comparisonsState } from "@/lib/insights/savings-stored";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import { useUpstreamForTest } from "../http/test-context";
import { mirrorCustomerId } from "./customers";
import { MirrorService } from "./service";
import { sessionFor, until } from "./service-test-helpers";

/**
 * Issue 25: the stored savings comparisons are computed after the sync's writes without any request asking. The
 * mirror service over the real sandbox (both profiles) and a real SQLite store: a sign-in syncs the fleet (every
 * completed fill marked pending), and the service's background loop then compares every one of them — no savings
 * request is made (polled until done; no timing asserted).
 */

const HOUR = 3_600_000;

describe.each(["primary", "alternative"] as const)("the sync's background comparisons (%s profile)", (profile) => {
  let upstream: SandboxProcess;
  let dir: string;
  let service: MirrorService;
  let client: FleetApiClient;

  beforeAll(async () => {
    upstream = await startSandboxProcess({ profile, args: ["--budget", "100000"] });
    useUpstreamForTest(upstream.baseUrl, { FLEET_API_BUDGET: "100000" });
    dir = mkdtempSync(join(tmpdir(), "ffd-sync-comparisons-"));
    client = new FleetApiClient({
      baseUrl: upstream.baseUrl,
      budget: new RequestBudget({ budget: 100_000, windowMs: 60_000 }),
    });
    service = new MirrorService({
      config: { enabled: true, path: join(dir, "mirror.db"), databaseUrl: undefined, retentionMs: 30 * 24 * HOUR },
      client,
      windowMs: 60_000,
      idleMs: HOUR,
      absoluteMs: 12 * HOUR,
      now: Date.now,
      endSessions: () => Promise.resolve(),
      warn: (fields, message) => {
        throw new Error(`${message}: ${JSON.stringify(fields)}`);
      },
    });
  });
  afterAll(async () => {
    await service.close();
    await upstream.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("compares every synced fill in the background, with no savings request", { timeout: 180_000 }, async () => {
    const session = await sessionFor(client, upstream.keys["demo-full"]);
    await service.signedIn(session);
    const store = await service.start();
    const customerId = mirrorCustomerId(session);
    const params = { radiusMiles: savingsConfig().radiusMiles, windowMs: savingsConfig().windowMs };
    const fills = async () =>
      Number(
        (
          await store.db
            .selectFrom("mirror_transactions")
            .select((eb) => eb.fn.countAll<string | number>().as("n"))
            .where("customer_id", "=", customerId)
            .where("status", "=", "completed")
            .executeTakeFirst()
        )?.n ?? 0,
      );
    // Until the sync has written the fleet and the loop has compared all of it.
    await until(
      async () => ({ fills: await fills(), state: await comparisonsState(store, customerId, params) }),
      (v) => v.fills > 0 && v.state.pending === 0,
    );
    const stored = await store.db
      .selectFrom("mirror_fill_comparisons")
      .select((eb) => eb.fn.countAll<string | number>().as("n"))
      .where("customer_id", "=", customerId)
      .where("kind", ">=", 0)
      .executeTakeFirst();
    expect(Number(stored?.n ?? 0)).toBe(await fills());
  });
});
