import fc from "fast-check";
import { describe, expect, it } from "vitest";

import type { Transaction } from "@/lib/model";
import { migratedOnly, mirrorPlacesOfThisFile } from "@/test/mirror-places";

import { detailFigures, rankedFigures } from "./drilldowns";
import { jurisdictionReport } from "./jurisdictions";
import { rebuildLocalRollups } from "./local-rollups";
import { toRow } from "./rows";
import { MirrorStore } from "./store";
import { DAY_MS } from "./sync-days";

/**
 * The local-day rollup is exact: after random upserts (new rows, status, time, offset, product and key changes,
 * repeated ids), deletions and purges through MirrorStore, the table equals a rebuild from the rows (sums and the
 * newest instant), and the jurisdiction report read from it equals the same report from the rows, over random ranges
 * of local dates, and so do the drill-downs' rankings and details. Both real stores: SQLite in a temporary file, PostgreSQL started in a temporary directory.
 */

const location = mirrorPlacesOfThisFile("local-rollups");

const BASE_MS = Date.parse("2026-03-08T00:00:00Z");
/**
 * 2.5 hours over ±2.5 days: instants fall either side of local midnights under every offset below, and few enough
 * key-days that rows share them (so a leaving row often was the newest of a key-day that keeps others).
 */
const STEP_MS = 9_000_000;
const instant = fc.integer({ min: -24, max: 24 }).map((i) => BASE_MS + i * STEP_MS);

const transaction = fc
  .record({
    id: fc.integer({ min: 0, max: 11 }),
    // A few ids share an instant: the newest instant of a key-day must survive the removal of one of them.
    at: fc.oneof(instant, fc.constant(BASE_MS)),
    offset: fc.constantFrom(null, -300, 345, 840, -720),
    status: fc.constantFrom("completed" as const, "pending" as const, "failed" as const),
    product: fc.oneof(
      { arbitrary: fc.constant("diesel"), weight: 4 },
      fc.constantFrom("Unleaded 87", "DEF", "kerosene"),
    ),
    driver: fc.integer({ min: 0, max: 2 }),
    truck: fc.constantFrom(null, "T1", "T2"),
    card: fc.constantFrom("1234", "9876"),
    station: fc.integer({ min: 0, max: 2 }),
    state: fc.constantFrom("OK", "tx ", ""),
    cents: fc.integer({ min: 1, max: 99_999 }),
    milli: fc.integer({ min: 1, max: 200_000 }),
    def: fc.option(
      fc.record({ cents: fc.integer({ min: 1, max: 9_999 }), milli: fc.integer({ min: 1, max: 20_000 }) }),
    ),
  })
  .map((r): Transaction => ({
    id: `t${String(r.id)}`,
    reference: `R${String(r.id)}`,
    at: new Date(r.at).toISOString(),
    localOffsetMinutes: r.offset,
    status: r.status,
    product: r.product,
    gallons: (r.milli / 1000).toFixed(3),
    pricePerGallon: "3.999",
    amount: (r.cents / 100).toFixed(2),
    station: {
      id: `s${String(r.station)}`,
      name: `Station ${String(r.station)}`,
      locNum: String(r.station),
      city: "Tulsa",
      state: r.state,
    },
    driver: { id: `d${String(r.driver)}`, name: `Driver ${String(r.driver)}`, truckId: r.truck },
    card: { last4: r.card },
    def: r.def
      ? { gallons: (r.def.milli / 1000).toFixed(3), amount: (r.def.cents / 100).toFixed(2), category: "DEF" }
      : null,
  }));

const customer = fc.constantFrom("A", "B");
const write = fc.oneof(
  fc.record({ kind: fc.constant("upsert" as const), customer, items: fc.array(transaction, { maxLength: 6 }) }),
  fc.record({
    kind: fc.constant("delete" as const),
    customer,
    ids: fc.array(
      fc.integer({ min: 0, max: 11 }).map((i) => `t${String(i)}`),
      { maxLength: 4 },
    ),
  }),
  fc.record({ kind: fc.constant("purge" as const), customer }),
  // A row the mirror holds comes back with another status or time (a pending fill completing, a corrected time):
  // the newest instant of the key-day it leaves must fall back to the next newest.
  fc.record({
    kind: fc.constant("change" as const),
    customer,
    id: fc.integer({ min: 0, max: 11 }).map((i) => `t${String(i)}`),
    status: fc.constantFrom("completed" as const, "pending" as const, "failed" as const),
    at: fc.option(instant),
  }),
);

const dateOf = (days: number) => new Date(BASE_MS + days * DAY_MS).toISOString().slice(0, 10);
const range = fc
  .record({ from: fc.integer({ min: -4, max: 3 }), days: fc.integer({ min: 0, max: 5 }) })
  .map((r) => ({ from: dateOf(r.from), to: dateOf(r.from + r.days) }));

const DRILL_KEYS = [
  ["driver", "d0"],
  ["truck", "T1"],
  ["card", "1234"],
  ["station", "s1"],
] as const;

async function localTable(store: MirrorStore) {
  const rows = await store.db
    .selectFrom("mirror_local_day_totals")
    .selectAll()
    .orderBy("customer_id")
    .orderBy("dimension")
    .orderBy("local_day")
    .orderBy("key")
    .orderBy("product")
    .orderBy("status")
    .execute();
  return rows.map((r) => JSON.stringify(Object.values(r).map(String)));
}

describe.each(["sqlite", "postgres"] as const)("the local-day rollup (%s store)", (kind) => {
  it("equals a rebuild from the rows, and answers the jurisdiction report as the rows do, after random writes", async () => {
    const store = await MirrorStore.open(await location(kind));
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(write, { minLength: 1, maxLength: 8 }),
          fc.array(fc.record({ customer, range }), { minLength: 1, maxLength: 3 }),
          async (writes, queries) => {
            await store.purge("A");
            await store.purge("B");
            const held = new Map<string, Transaction>();
            for (const w of writes) {
              if (w.kind === "upsert") {
                await store.upsertTransactions(w.customer, w.items, 1);
                for (const t of w.items) held.set(`${w.customer}/${t.id}`, t);
              } else if (w.kind === "delete") await store.deleteTransactions(w.customer, w.ids);
              else if (w.kind === "change") {
                const old = held.get(`${w.customer}/${w.id}`);
                if (old === undefined) continue;
                const changed = { ...old, status: w.status, at: w.at === null ? old.at : new Date(w.at).toISOString() };
                await store.upsertTransactions(w.customer, [changed], 1);
                held.set(`${w.customer}/${w.id}`, changed);
              } else await store.purge(w.customer);
            }
            for (const q of queries) {
              expect(await jurisdictionReport(store, q.customer, q.range, "rollups")).toEqual(
                await jurisdictionReport(store, q.customer, q.range, "rows"),
              );
              // The drill-downs' rankings and one key's detail (totals, trend) read the same figures either way.
              for (const [dimension, key] of DRILL_KEYS) {
                expect(await rankedFigures(store, q.customer, dimension, q.range, "rollups")).toEqual(
                  await rankedFigures(store, q.customer, dimension, q.range, "rows"),
                );
                expect(await detailFigures(store, q.customer, dimension, key, q.range, "rollups")).toEqual(
                  await detailFigures(store, q.customer, dimension, key, q.range, "rows"),
                );
              }
            }
            const kept = await localTable(store);
            await store.transaction((trx) => rebuildLocalRollups(trx));
            expect(kept).toEqual(await localTable(store));
          },
        ),
        { numRuns: 100, seed: 16 },
      );
    } finally {
      await store.close();
    }
  });

  it("an existing mirror (schema 0003, rows) gains the table computed from its rows when opened", async () => {
    const where = await location(kind);
    const db = await migratedOnly(where, (name) => name < "0004");
    const items = fc.sample(transaction, { numRuns: 60, seed: 7 });
    const unique = [...new Map(items.map((t) => [t.id, t])).values()];
    await db
      .insertInto("mirror_transactions")
      .values(unique.map((t) => toRow("A", t, 1)))
      .execute();
    await db.destroy();

    const store = await MirrorStore.open(where);
    try {
      const Q = { from: dateOf(-4), to: dateOf(4) };
      const report = await jurisdictionReport(store, "A", Q, "rollups");
      expect(report.failed.purchases).toBe(unique.filter((t) => t.status === "failed").length);
      expect(report).toEqual(await jurisdictionReport(store, "A", Q, "rows"));
    } finally {
      await store.close();
    }
  });

  it.runIf(kind === "postgres")(
    "stays exact when two stores (two app instances) write one customer at once",
    async () => {
      const where = await location(kind);
      const [one, two] = await Promise.all([MirrorStore.open(where), MirrorStore.open(where)]);
      try {
        const batches = fc.sample(fc.array(transaction, { minLength: 4, maxLength: 8 }), { numRuns: 24, seed: 3 });
        await Promise.all(batches.map((items, i) => (i % 2 === 0 ? one : two).upsertTransactions("A", items, 1)));
        const kept = await localTable(one);
        await one.transaction((trx) => rebuildLocalRollups(trx));
        expect(kept).toEqual(await localTable(one));
      } finally {
        await Promise.all([one.close(), two.close()]);
      }
    },
  );
});
