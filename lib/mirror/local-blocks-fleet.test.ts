import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Transaction } from "@/lib/model";
import { MIRROR_CASES, mirrorStoresOfThisFile, type MirrorUpstream, startMirrorUpstream } from "@/test/mirror-stack";

import { detailFigures, rankedFigures } from "./drilldowns";
import { type GroupRow, rollupLastOf, sumsOf } from "./drilldowns-figures";
import { groupedSumsFromRollup } from "./drilldowns-rollup";
import { localDateOf } from "./local-dates";
import { periodTotals, spendTotals } from "./period-totals";
import { settlingByKey, settlingOf } from "./settling";
import { DAY_MS } from "./sync-days";

/**
 * The fast paths of the drill-downs and the overview (issue 25 item 7) against the direct computation, over a sandbox
 * fleet synced for real (both profiles) into both real stores: rankings from the local-day blocks equal the rankings
 * from the rows over random ranges up to two years, a ranking's head (`top`) is the head of the whole ranking (its keys'
 * sums read alone, by their day rows or by the blocks, are every key's sums of them), one
 * key's detail is the same either way, the settling figures (read through the index of pending rows) count the
 * pending purchases and their local dates as the rows do, and the previous period's totals from the UTC rollups equal
 * the rows' sums over random instants.
 */

const openStore = mirrorStoresOfThisFile();

const DIMENSIONS = ["driver", "truck", "card", "station"] as const;
type Dimension = (typeof DIMENSIONS)[number];

const keyOf = (t: Transaction, dimension: Dimension): string | null =>
  dimension === "driver"
    ? t.driver.id
    : dimension === "truck"
      ? t.driver.truckId
      : dimension === "card"
        ? t.card.last4
        : t.station.id;

/** Pending purchases and their distinct local dates in [from, to] (local dates), per key and in all. */
function pendingOf(all: readonly Transaction[], dimension: Dimension, range: { from: string; to: string }) {
  const byKey = new Map<string, { purchases: number; days: Set<string> }>();
  const days = new Set<string>();
  let purchases = 0;
  for (const t of all) {
    const date = localDateOf(Date.parse(t.at), t.localOffsetMinutes);
    if (t.status !== "pending" || date < range.from || date > range.to) continue;
    purchases++;
    days.add(date);
    const key = keyOf(t, dimension);
    if (key === null || key === "") continue;
    const k = byKey.get(key) ?? { purchases: 0, days: new Set<string>() };
    k.purchases++;
    k.days.add(date);
    byKey.set(key, k);
  }
  return {
    total: { purchases, days: days.size },
    byKey: new Map([...byKey].map(([k, v]) => [k, { purchases: v.purchases, days: v.days.size }] as const)),
  };
}

describe.each(MIRROR_CASES)("drill-down and overview fast paths (%s profile, %s store)", (profile, kind) => {
  let stack: MirrorUpstream;
  beforeAll(async () => {
    stack = await startMirrorUpstream(profile);
  });
  afterAll(() => stack.upstream.stop());

  it("answer what the rows answer over a synced sandbox fleet", async () => {
    const store = await openStore(kind);
    try {
      const run = await stack.newSync(store).run("PFL", stack.pfl, { phases: ["head", "backfill"] });
      expect(run).toMatchObject({ status: "done" });
      const all = await store.allTransactions("PFL");
      const first = all[0];
      if (first === undefined) throw new Error("the sandbox fleet has no purchases");
      const newest = Math.max(...all.map((t) => Date.parse(t.at)));
      const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const range = fc
        .record({ back: fc.integer({ min: -3, max: 400 }), days: fc.integer({ min: 1, max: 731 }) })
        .map((r) => {
          const toMs = newest - r.back * DAY_MS;
          return { from: dateOf(toMs - (r.days - 1) * DAY_MS), to: dateOf(toMs) };
        });
      await fc.assert(
        fc.asyncProperty(
          range,
          fc.constantFrom(...DIMENSIONS),
          fc.integer({ min: 0, max: 7 }),
          async (r, dimension, top) => {
            const fromRows = await rankedFigures(store, "PFL", dimension, r, "rows");
            expect(await rankedFigures(store, "PFL", dimension, r, "rollups")).toEqual(fromRows);
            const head = await rankedFigures(store, "PFL", dimension, r, "rollups", top);
            expect(head).toEqual({ ...fromRows, rows: fromRows.rows.slice(0, top) });
            // The head's keys read alone, through their day rows or the plan's blocks: the same sums as every key's.
            const chosen = fromRows.rows.slice(0, top + 1).map((row) => row.key);
            // Figures per key (a folded row's `product` is whichever product came first: not a figure).
            const byKey = (rows: readonly GroupRow[]) =>
              rows
                .map((g) => [g.k, sumsOf(g, rollupLastOf)] as const)
                .sort(([x], [y]) => ((x ?? "") < (y ?? "") ? -1 : 1));
            const every = await groupedSumsFromRollup(store, "PFL", dimension, r);
            for (const viaDays of [true, false])
              expect(byKey(await groupedSumsFromRollup(store, "PFL", dimension, r, { keys: chosen, viaDays }))).toEqual(
                byKey(every.filter((g) => g.k !== null && chosen.includes(g.k))),
              );
            const key = fromRows.rows[top % Math.max(1, fromRows.rows.length)]?.key ?? keyOf(first, dimension);
            if (key !== null)
              expect(await detailFigures(store, "PFL", dimension, key, r, "rollups")).toEqual(
                await detailFigures(store, "PFL", dimension, key, r, "rows"),
              );
            const pending = pendingOf(all, dimension, r);
            expect(await settlingOf(store, "PFL", r)).toEqual(pending.total);
            expect(await settlingByKey(store, "PFL", dimension, r)).toEqual(pending.byKey);
          },
        ),
        { numRuns: 30, seed: 25 },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 500 * DAY_MS }),
          fc.integer({ min: 0, max: 400 * DAY_MS }),
          async (back, length) => {
            const toMs = newest + 1 - back;
            const range = { fromMs: toMs - length, toMs };
            const fromRows = await periodTotals(store, "PFL", range);
            expect(await spendTotals(store, "PFL", range)).toEqual(fromRows);
            expect(await spendTotals(store, "PFL", range, "rows")).toEqual(fromRows);
          },
        ),
        { numRuns: 30, seed: 25 },
      );
    } finally {
      await store.close();
    }
    // A sync and 60 comparisons on two cores shared with other work: more than the default 30 s.
  }, 120_000);
});
