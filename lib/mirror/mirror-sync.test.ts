import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type Credentials, type FleetApiClient, reserveOf } from "@/lib/fleet-api";
import {
  BUDGET,
  control,
  maxInAnyWindow,
  MIRROR_CASES,
  mirrorStoresOfThisFile,
  type MirrorUpstream,
  served,
  startMirrorUpstream,
  upstreamWalk,
  WINDOW_MS,
} from "@/test/mirror-stack";
import type { SandboxProcess } from "@/test/sandbox-process";

import { listPage } from "./queries";

// The sync against the real sandbox (both profiles) and both real stores (test/mirror-stack.ts): exactness, random
// changes between syncs, resuming, one run at a time, the budget's reserve.

const openStore = mirrorStoresOfThisFile();

describe.each(MIRROR_CASES)("the mirror's sync (%s profile, %s store)", (profile, kind) => {
  let stack: MirrorUpstream;
  let upstream: SandboxProcess;
  let client: FleetApiClient;
  let pfl: Credentials;
  let chi: Credentials;
  beforeAll(async () => {
    stack = await startMirrorUpstream(profile);
    ({ upstream, client, pfl, chi } = stack);
  });
  afterAll(() => stack.upstream.stop());
  const newSync: MirrorUpstream["newSync"] = (store) => stack.newSync(store);

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
});
