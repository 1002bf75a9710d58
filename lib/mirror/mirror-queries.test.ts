import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Credentials } from "@/lib/fleet-api";
import { MIRROR_CASES, mirrorStoresOfThisFile, type MirrorUpstream, startMirrorUpstream } from "@/test/mirror-stack";

import { countsByStatus, listPage, stateProductTotals } from "./queries";
import { summarize } from "./summary";

// The mirror's queries (pages, counts, summaries, state × product) against its own rows, after a real sync from the
// real sandbox (both profiles) into both real stores (test/mirror-stack.ts).

const openStore = mirrorStoresOfThisFile();

describe.each(MIRROR_CASES)("the mirror's queries (%s profile, %s store)", (profile, kind) => {
  let stack: MirrorUpstream;
  let pfl: Credentials;
  beforeAll(async () => {
    stack = await startMirrorUpstream(profile);
    ({ pfl } = stack);
  });
  afterAll(() => stack.upstream.stop());
  const newSync: MirrorUpstream["newSync"] = (store) => stack.newSync(store);

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
