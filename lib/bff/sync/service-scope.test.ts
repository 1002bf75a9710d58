import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type Credentials, FleetApiClient, RequestBudget } from "@/lib/fleet-api";
import type { SyncStatusReply } from "@/lib/model/mirror-replies";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import type { ActiveSession } from "../platform/session";
import { MirrorService } from "./service";
import { sessionFor, until } from "./service-test-helpers";

/**
 * A key without the transactions scope is that key's matter, not its customer's mirror's: against the real sandbox
 * (both profiles, logging its requests) and a real SQLite store, two keys of one customer (PFL), one of them without
 * the scope. Issue 24 item 1: the restricted key never reads the local copy the other key fills — not while that
 * key's backfill runs, not after a restart — and finding that out costs one upstream request at its sign-in.
 */

const HOUR = 3_600_000;
/** The budget window of the slow service: long, so a backfill out of budget waits for the rest of the test. */
const SLOW_WINDOW_MS = 10 * 60_000;

/** The sandbox's log lines of transaction list calls answered with `status` (the restricted key's are the 403s). */
const listCalls = (sb: SandboxProcess, status?: number) =>
  [...sb.output().matchAll(/\[sandbox\] GET \/\S*transactions(?:\?\S*)? (\d{3})/g)].filter(
    (m) => status === undefined || m[1] === String(status),
  ).length;
/** The sandbox prints its log line as it answers: give the pipe a moment before counting (not a timing assertion). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe.each(["primary", "alternative"] as const)("the mirror and a key without the scope (%s profile)", (profile) => {
  let upstream: SandboxProcess;
  let dir: string;
  const services: MirrorService[] = [];

  /**
   * A service over its own client. `slow`: a budget of 12 requests per 10 minutes per key (the sync keeps a quarter
   * back) and pages of 10 rows, so the backfill of PFL's history runs out of budget and is still running while the
   * test signs in the other key: "while a backfill runs" by construction, not by timing.
   */
  const newService = (path: string, slow = false) => {
    const client = new FleetApiClient({
      baseUrl: upstream.baseUrl,
      budget: slow
        ? new RequestBudget({ budget: 12, windowMs: SLOW_WINDOW_MS })
        : new RequestBudget({ budget: 100_000, windowMs: 60_000 }),
    });
    const service = new MirrorService({
      config: { enabled: true, path, databaseUrl: undefined, retentionMs: 30 * 24 * HOUR },
      client,
      windowMs: slow ? SLOW_WINDOW_MS : 60_000,
      ...(slow ? { pageSize: 10 } : {}),
      idleMs: HOUR,
      absoluteMs: 12 * HOUR,
      now: () => Date.now(),
      endSessions: () => Promise.resolve(),
      warn: () => undefined,
    });
    services.push(service);
    return { service, client };
  };

  async function signIn(on: { service: MirrorService; client: FleetApiClient }, credentials: Credentials) {
    const session = await sessionFor(on.client, credentials);
    await on.service.signedIn(session);
    return session;
  }

  beforeAll(async () => {
    upstream = await startSandboxProcess({ profile, log: true, args: ["--budget", "100000"] });
    dir = mkdtempSync(join(tmpdir(), "ffd-mirror-scope-"));
  });
  afterAll(async () => {
    for (const service of services) await service.close();
    await upstream.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps a key's missing transactions scope to that key: a full-scope session of the same customer stays ready", async () => {
    const on = newService(join(dir, "ready.db"));
    const full = await signIn(on, upstream.keys["demo-full"]);
    const ready = await until(
      () => on.service.status(full),
      (s: SyncStatusReply) => !s.running && s.state !== "starting",
    );
    expect(ready).toMatchObject({ state: "ready", error: null });
    const partial = await signIn(on, upstream.keys["demo-no-transactions"]);
    // Known at sign-in (primary: its own probe; alternative: the scopes it reported), not after a sync run.
    expect(await on.service.status(partial)).toMatchObject({ state: "off", rows: 0 });
    expect((await on.service.status(partial)).error).toMatch(/may not read transactions/);
    expect(await on.service.status(full)).toMatchObject({ state: "ready", error: null });
    expect(await on.service.gate(full)).not.toBeNull();
  });

  it("never lets the key without the scope read the local copy while the other key's backfill runs, nor after a restart", async () => {
    const path = join(dir, "backfill.db");
    const slow = newService(path, true);
    const full = await signIn(slow, upstream.keys["demo-full"]);
    const backfilling = await until(
      () => slow.service.status(full),
      (s) => s.state === "backfilling" && s.running,
    );
    expect(backfilling.backfill.complete).toBe(false);
    expect(await slow.service.gate(full)).not.toBeNull(); // the local copy serves the key that proved the scope

    await settle();
    const refusedBefore = listCalls(upstream, 403);
    const partial: ActiveSession = await signIn(slow, upstream.keys["demo-no-transactions"]);
    expect(await slow.service.gate(partial)).toBeNull();
    expect(await slow.service.transactionsVerdict(partial)).toBe("refused");
    expect(await slow.service.status(partial)).toMatchObject({ state: "off", rows: 0 });
    await settle();
    // The probe: one GET /transactions?limit=1 of its own in the primary shape (403); none where scopes are reported.
    expect(listCalls(upstream, 403) - refusedBefore).toBe(profile === "primary" ? 1 : 0);
    expect((await slow.service.status(full)).state).toBe("backfilling"); // still out of budget: nothing ended it

    // A restart: a new service on the same database, the full key not signed in to it (so nothing syncs).
    await slow.service.close();
    const restarted = newService(path);
    await settle();
    const callsBefore = listCalls(upstream);
    expect(await restarted.service.gate(partial)).toBeNull();
    expect(await restarted.service.transactionsVerdict(partial)).toBe("refused");
    await settle();
    expect(listCalls(upstream) - callsBefore).toBe(0); // the stored verdict: no new probe
    // The full key's session from before the restart is still served (its verdict is stored too).
    expect(await restarted.service.transactionsVerdict(full)).toBe("proven");
  });
});
