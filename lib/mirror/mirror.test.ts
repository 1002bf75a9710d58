import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type Credentials, FleetApiClient, RequestBudget, reserveOf } from "@/lib/fleet-api";
import type { Transaction } from "@/lib/model";
import { type PostgresServer, startPostgresServer } from "@/test/postgres-server";
import { type SandboxProcess, startSandboxProcess } from "@/test/sandbox-process";

import { countsByStatus, listPage, stateProductTotals } from "./queries";
import { MirrorStore } from "./store";
import { summarize } from "./summary";
import { MirrorSync } from "./sync";

/**
 * The mirror against the real sandbox (over HTTP, both profiles) and both real stores: SQLite in a temporary file and a
 * PostgreSQL server this file starts in a temporary directory. The sandbox's budget window is shortened to one second
 * (client and sandbox agree on it) so the budget rule is exercised without minutes of waiting.
 */

const BUDGET = 24;
const WINDOW_MS = 1000;
/** Pages of 50 rows: several pages per sync even on the small test data set. */
const PAGE_SIZE = 50;

let postgres: PostgresServer;
let tempDir: string;
let databases = 0;

beforeAll(async () => {
  tempDir = mkdtempSync(join(tmpdir(), "ffd-mirror-"));
  postgres = await startPostgresServer();
});
afterAll(async () => {
  await postgres.stop();
  rmSync(tempDir, { recursive: true, force: true });
});

type StoreKind = "sqlite" | "postgres";
const openStore = async (kind: StoreKind): Promise<MirrorStore> => {
  databases++;
  return kind === "sqlite"
    ? MirrorStore.open({ path: join(tempDir, `mirror-${String(databases)}.db`) })
    : MirrorStore.open({ databaseUrl: await postgres.createDatabase(`mirror_${String(databases)}`) });
};

interface Served {
  atMs: number;
  method: string;
  path: string;
  status: number;
}

async function control(upstream: SandboxProcess, method: string, path: string, body?: unknown): Promise<unknown> {
  const origin = upstream.baseUrl.replace(/\/api\/v1$/, "");
  const reply = await fetch(`${origin}/sandbox${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!reply.ok) throw new Error(`${method} ${path}: ${String(reply.status)} ${await reply.text()}`);
  return reply.json();
}

const served = async (upstream: SandboxProcess) =>
  ((await control(upstream, "GET", "/requests")) as { requests: Served[] }).requests;

/** The most requests of one key's traffic in any window of `windowMs` (the sandbox's arrival times). */
function maxInAnyWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while ((sorted[hi] ?? 0) - (sorted[lo] ?? 0) >= windowMs) lo++;
    most = Math.max(most, hi - lo + 1);
  }
  return most;
}

/** The upstream's whole list, newest first, in the mirror's order (time, then id). */
async function upstreamWalk(client: FleetApiClient, credentials: Credentials): Promise<Transaction[]> {
  const all: Transaction[] = [];
  for await (const t of client.iterateTransactions(credentials, {}, { pageSize: 200, priority: "interactive" }))
    all.push(t);
  return all.sort((a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : a.at < b.at ? 1 : -1));
}

describe.each([
  ["primary", "sqlite"],
  ["primary", "postgres"],
  ["alternative", "sqlite"],
  ["alternative", "postgres"],
] as const)("the mirror (%s profile, %s store)", (profile, kind) => {
  let upstream: SandboxProcess;
  let client: FleetApiClient;
  let pfl: Credentials;
  let chi: Credentials;

  beforeAll(async () => {
    upstream = await startSandboxProcess({
      profile,
      args: ["--control", "--budget", String(BUDGET), "--window-seconds", String(WINDOW_MS / 1000)],
    });
    // The default 250 ms margin: the sends of any window are spaced 1.25 s apart at the client, which absorbs the
    // scheduling jitter between a grant and its arrival on a loaded machine; the sandbox counts 1 s windows.
    client = new FleetApiClient({
      baseUrl: upstream.baseUrl,
      budget: new RequestBudget({ budget: BUDGET, windowMs: WINDOW_MS, safetyMarginMs: 250 }),
    });
    pfl = upstream.keys["demo-full"];
    chi = upstream.keys["other-full"];
  });
  afterAll(() => upstream.stop());

  const newSync = (store: MirrorStore) => new MirrorSync({ store, client, pageSize: PAGE_SIZE, windowMs: WINDOW_MS });

  it("mirrors the whole history exactly (head, backfill, verification), never in the last quarter of a window, and keeps customers apart", async () => {
    const store = await openStore(kind);
    try {
      const before = (await served(upstream)).length;
      const sync = newSync(store);
      const progress: number[] = [];
      const outcome = await sync.run("PFL", pfl, {
        onProgress: (p) => p.phase === "backfill" && progress.push(p.rowsDone),
      });
      expect(outcome.status).toBe("done");
      const syncRequests = (await served(upstream)).slice(before);
      expect(await sync.run("CHI", chi)).toMatchObject({ status: "done" });

      expect(await store.allTransactions("PFL")).toEqual(await upstreamWalk(client, pfl));
      expect(await store.allTransactions("CHI")).toEqual(await upstreamWalk(client, chi));
      // Backfill progress grows page by page.
      expect(progress.length).toBeGreaterThan(2);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      // The sync's own requests: never more than budget − reserve in any window, and no 429 at all.
      expect(syncRequests.every((r) => r.status !== 429)).toBe(true);
      expect(
        maxInAnyWindow(
          syncRequests.map((r) => r.atMs),
          WINDOW_MS,
        ),
      ).toBeLessThanOrEqual(BUDGET - reserveOf(BUDGET));

      // Two customers in one store never see each other's rows.
      const pflIds = new Set((await store.allTransactions("PFL")).map((t) => t.id));
      const chiPage = await listPage(store, "CHI", { limit: 1000 });
      expect(chiPage.total).toBeGreaterThan(0);
      expect(chiPage.items.some((t) => pflIds.has(t.id))).toBe(false);
      expect((await listPage(store, "NOBODY", {})).total).toBe(0);
      const state = await store.getSyncState("PFL");
      expect(state.backfill.complete).toBe(true);
      expect(state.lastVerification).toMatchObject({ matched: true });
    } finally {
      await store.close();
    }
  });

  it("keeps the mirror equal to the upstream after random inserts, status changes and deletions between syncs", async () => {
    const store = await openStore(kind);
    const sync = newSync(store);
    // The sandbox's budget is per key: from here on only the PFL key is used, so its requests are counted alone.
    const before = (await served(upstream)).length;
    try {
      expect(await sync.run("PFL", pfl)).toMatchObject({ status: "done" });
      const nowSec = () => Math.floor(Date.now() / 1000);
      const op = fc.oneof(
        fc.record({
          kind: fc.constant("insert" as const),
          count: fc.integer({ min: 1, max: 4 }),
          hoursAgo: fc.constantFrom(0, 5, 70, 24 * 40),
        }),
        fc.record({
          kind: fc.constant("status" as const),
          pick: fc.nat(),
          status: fc.constantFrom("completed" as const, "pending" as const, "failed" as const),
        }),
        fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 4 }), async (ops) => {
          for (const o of ops) {
            const ids = (await store.allTransactions("PFL")).map((t) => t.id);
            if (o.kind === "insert")
              await control(upstream, "POST", "/transactions", {
                customer: "PFL",
                count: o.count,
                atSec: nowSec() - o.hoursAgo * 3600,
              });
            else if (ids.length > 0) {
              const id = ids[o.pick % ids.length] ?? "";
              if (o.kind === "status") await control(upstream, "PATCH", `/transactions/${id}`, { status: o.status });
              else await control(upstream, "DELETE", `/transactions/${id}`);
            }
          }
          const outcome = await sync.run("PFL", pfl, { phases: ["head", "verify"] });
          expect(outcome.status).toBe("done");
          expect(await store.allTransactions("PFL")).toEqual(await upstreamWalk(client, pfl));
        }),
        { numRuns: 4, seed: 15 },
      );
      const requests = (await served(upstream)).slice(before);
      expect(requests.every((r) => r.status !== 429)).toBe(true);
      expect(
        maxInAnyWindow(
          requests.map((r) => r.atMs),
          WINDOW_MS,
        ),
      ).toBeLessThanOrEqual(BUDGET);
    } finally {
      await store.close();
    }
  });

  it("resumes a backfill cut short (the process stopped mid-walk) with nothing lost and nothing twice", async () => {
    const store = await openStore(kind);
    try {
      const abort = new AbortController();
      let pages = 0;
      const first = await newSync(store).run("CHI", chi, {
        signal: abort.signal,
        onProgress: (p) => {
          if (p.phase === "backfill" && ++pages === 2) abort.abort(new Error("stopped"));
        },
      });
      expect(first.status).toBe("aborted");
      const halfway = await store.getSyncState("CHI");
      expect(halfway.backfill.complete).toBe(false);
      expect(halfway.backfill.nextPage).toBe(3);
      // A new engine (as after a restart) over the same store picks up the persisted cursor.
      const resumed = await newSync(store).run("CHI", chi, { phases: ["head", "backfill"] });
      expect(resumed.status).toBe("done");
      const mirrored = await store.allTransactions("CHI");
      expect(new Set(mirrored.map((t) => t.id)).size).toBe(mirrored.length);
      expect(mirrored).toEqual(await upstreamWalk(client, chi));
    } finally {
      await store.close();
    }
  });

  it("a head sync cut short leaves no gap: the next one still walks down to where the last complete one stopped", async () => {
    const store = await openStore(kind);
    try {
      const sync = newSync(store);
      expect(await sync.run("CHI", chi, { phases: ["head", "backfill"] })).toMatchObject({ status: "done" });
      const nowSec = Math.floor(Date.now() / 1000);
      // Rows ten days old (beyond the 72 h lookback from the newest), then more than a page of rows now.
      await control(upstream, "POST", "/transactions", { customer: "CHI", count: 60, atSec: nowSec - 10 * 86_400 });
      await control(upstream, "POST", "/transactions", { customer: "CHI", count: 60, atSec: nowSec });
      const abort = new AbortController();
      const cut = await sync.run("CHI", chi, {
        phases: ["head"],
        signal: abort.signal,
        onProgress: () => {
          abort.abort(new Error("stopped"));
        },
      });
      expect(cut.status).toBe("aborted");
      expect(await sync.run("CHI", chi, { phases: ["head"] })).toMatchObject({ status: "done" });
      expect(await store.allTransactions("CHI")).toEqual(await upstreamWalk(client, chi));
    } finally {
      await store.close();
    }
  });

  it("runs one sync per customer at a time, and stops on a 401 and says so", async () => {
    const store = await openStore(kind);
    try {
      const sync = newSync(store);
      const [a, b] = await Promise.all([
        sync.run("CHI", chi, { phases: ["head"] }),
        sync.run("CHI", chi, { phases: ["head"] }),
      ]);
      expect([a.status, b.status].sort()).toEqual(["busy", "done"]);
      const revoked = await sync.run("PFL", upstream.keys["demo-revoked"]);
      expect(revoked.status).toBe("unauthenticated");
      expect((await store.getSyncState("PFL")).lastError).toBe("unauthenticated");
    } finally {
      await store.close();
    }
  });

  it("answers pages, counts, summaries and the state × product grouping exactly as the rows say", async () => {
    const store = await openStore(kind);
    try {
      expect(await newSync(store).run("PFL", pfl, { phases: ["head", "backfill"] })).toMatchObject({ status: "done" });
      const all = await store.allTransactions("PFL");
      const cents = (s: string) => Math.round(Number(s) * 100);
      const sample = all[Math.floor(all.length / 3)] ?? all[0];
      if (!sample) throw new Error("no rows");
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            driverId: fc.option(fc.constant(sample.driver.id), { nil: undefined }),
            state: fc.option(fc.constantFrom(sample.station.state, "ZZ"), { nil: undefined }),
            status: fc.option(fc.constantFrom("completed" as const, "pending" as const, "failed" as const), {
              nil: undefined,
            }),
            amountMin: fc.option(fc.constantFrom("50.00", "200.00"), { nil: undefined }),
            search: fc.option(fc.constantFrom(sample.card.last4, sample.driver.name.slice(0, 3).toUpperCase()), {
              nil: undefined,
            }),
            days: fc.integer({ min: 1, max: 120 }),
            sort: fc.constantFrom("amount" as const, "at" as const, "driver" as const),
          }),
          async (f) => {
            const toMs = Date.parse(sample.at) + 1;
            const fromMs = toMs - f.days * 86_400_000;
            const filter = {
              driverId: f.driverId,
              state: f.state,
              status: f.status,
              amountMin: f.amountMin,
              search: f.search,
              fromMs,
              toMs,
            };
            const expected = all.filter(
              (t) =>
                Date.parse(t.at) >= fromMs &&
                Date.parse(t.at) < toMs &&
                (f.driverId === undefined || t.driver.id === f.driverId) &&
                (f.state === undefined || t.station.state === f.state) &&
                (f.status === undefined || t.status === f.status) &&
                (f.amountMin === undefined || cents(t.amount) >= cents(f.amountMin)) &&
                (f.search === undefined ||
                  [t.station.name, t.driver.name, t.card.last4, t.reference].some((v) =>
                    v.toLowerCase().includes(f.search?.toLowerCase() ?? ""),
                  )),
            );
            const page = await listPage(store, "PFL", {
              filter,
              sort: { column: f.sort, direction: "desc" },
              limit: 1000,
            });
            expect(page.total).toBe(expected.length);
            expect(new Set(page.items.map((t) => t.id))).toEqual(new Set(expected.map((t) => t.id)));
            if (f.sort === "amount")
              expect(page.items.map((t) => cents(t.amount))).toEqual(
                expected.map((t) => cents(t.amount)).sort((a, b) => b - a),
              );
            const counts = await countsByStatus(store, "PFL", filter);
            expect(counts.completed + counts.pending + counts.failed).toBe(expected.length);
          },
        ),
        { numRuns: 25, seed: 15 },
      );

      // A summary over 30 days in Chicago time: totals and the daily series from the rows, exactly.
      const toMs = Date.parse(all[0]?.at ?? "") + 1;
      const fromMs = toMs - 30 * 86_400_000;
      const summary = await summarize(store, "PFL", { fromMs, toMs, timeZone: "America/Chicago" });
      const spend = all.filter((t) => Date.parse(t.at) >= fromMs && Date.parse(t.at) < toMs && t.status !== "failed");
      const sumCents = spend.reduce((s, t) => s + BigInt(t.amount.replace(".", "")), 0n);
      expect(summary.totals.transactions).toBe(spend.length);
      expect(summary.totals.amount.replace(".", "")).toBe(sumCents.toString().padStart(3, "0"));
      const chicagoDay = (iso: string) =>
        new Intl.DateTimeFormat("en-CA", { timeZone: "America/Chicago" }).format(new Date(iso));
      for (const day of summary.daily)
        expect(day.transactions).toBe(spend.filter((t) => chicagoDay(t.at) === day.date).length);
      expect(summary.daily.reduce((s, d) => s + d.transactions, 0)).toBe(spend.length);
      const byDriver = new Map<string, bigint>();
      for (const t of spend)
        byDriver.set(t.driver.id, (byDriver.get(t.driver.id) ?? 0n) + BigInt(t.amount.replace(".", "")));
      const [bestId, bestCents] = [...byDriver.entries()].sort((x, y) =>
        y[1] > x[1] ? 1 : y[1] < x[1] ? -1 : 0,
      )[0] ?? ["", 0n];
      expect(summary.topDrivers[0]).toMatchObject({
        id: bestId,
        name: spend.find((t) => t.driver.id === bestId)?.driver.name,
      });
      expect(summary.topDrivers[0]?.amount.replace(".", "")).toBe(bestCents.toString());
      const grouped = await stateProductTotals(store, "PFL", { fromMs, toMs });
      expect(grouped.reduce((s, r) => s + r.transactions, 0)).toBe(spend.length);
    } finally {
      await store.close();
    }
  });
});
