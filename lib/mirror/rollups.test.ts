import fc from "fast-check";
import { describe, expect, it } from "vitest";

import type { Transaction } from "@/lib/model";
import { migratedOnly, mirrorPlacesOfThisFile } from "@/test/mirror-places";

import { stateProductTotalsFrom } from "./queries";
import { rebuildRollups, SPANS } from "./rollups";
import { toRow } from "./rows";
import { MirrorStore } from "./store";
import { summarizeFrom } from "./summary";
import { DAY_MS } from "./sync-days";

/**
 * The rollups are exact: after random upserts (new rows, status and time changes, repeated ids), deletions and purges
 * through MirrorStore, every summary and state × product grouping answered with the rollups equals the same answer
 * from the rows alone, and the rollup tables equal a rebuild from the rows. Both real stores: SQLite in a temporary
 * file, PostgreSQL started in a temporary directory. An existing mirror (schema 0001, rows, no rollups) gains them
 * when opened.
 */

const location = mirrorPlacesOfThisFile("rollups");

/**
 * A boundary of the largest period: the rows lie 20 days either side, and ranges of up to 300 days cover whole
 * periods of every span, whole days and partial ones.
 */
const LARGEST_MS = Math.max(...SPANS) * DAY_MS;
const BASE_MS = Math.floor(Date.parse("2026-03-08T00:00:00Z") / LARGEST_MS) * LARGEST_MS;
const SPREAD_MS = 20 * DAY_MS;
/** 7.5 minutes: instants fall on and between quarter-hour, day and block boundaries. */
const STEP_MS = 450_000;

const instant = fc.integer({ min: -SPREAD_MS / STEP_MS, max: SPREAD_MS / STEP_MS }).map((i) => BASE_MS + i * STEP_MS);

const transaction = fc
  .record({
    id: fc.integer({ min: 0, max: 11 }),
    at: instant,
    status: fc.constantFrom("completed" as const, "pending" as const, "failed" as const),
    product: fc.constantFrom("diesel", "unleaded"),
    driver: fc.integer({ min: 0, max: 2 }),
    station: fc.integer({ min: 0, max: 2 }),
    cents: fc.integer({ min: 1, max: 99_999 }),
    milli: fc.integer({ min: 1, max: 200_000 }),
  })
  .map((r): Transaction => ({
    id: `t${String(r.id)}`,
    reference: `R${String(r.id)}`,
    at: new Date(r.at).toISOString(),
    localOffsetMinutes: null,
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
      state: r.station === 2 ? "TX" : "OK",
    },
    driver: { id: `d${String(r.driver)}`, name: `Driver ${String(r.driver)}`, truckId: null },
    card: { last4: "1234" },
    def: null,
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
);

const query = fc.record({
  customer,
  from: fc.oneof(
    instant,
    fc.integer({ min: -150, max: 25 }).map((d) => BASE_MS + d * DAY_MS),
    fc.nat().map((n) => BASE_MS - SPREAD_MS - (n % 1000) * 61_000),
  ),
  days: fc.oneof(fc.integer({ min: 0, max: 45 }), fc.integer({ min: 100, max: 300 }), fc.constant(0)),
  extraMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: DAY_MS - 1 })),
  timeZone: fc.constantFrom("UTC", "America/Chicago", "Asia/Kathmandu", "Australia/Lord_Howe"),
});

async function rollupTables(store: MirrorStore) {
  const buckets = await store.db
    .selectFrom("mirror_bucket_totals")
    .selectAll()
    .orderBy("customer_id")
    .orderBy("bucket")
    .execute();
  const groups = await store.db
    .selectFrom("mirror_group_totals")
    .selectAll()
    .orderBy("customer_id")
    .orderBy("dimension")
    .orderBy("span_days")
    .orderBy("period")
    .orderBy("key")
    .orderBy("key2")
    .execute();
  const text = (rows: object[]) => rows.map((r) => JSON.stringify(Object.values(r).map(String)));
  return { buckets: text(buckets), groups: text(groups) };
}

describe.each(["sqlite", "postgres"] as const)("the rollups (%s store)", (kind) => {
  it("answer every summary and state × product grouping exactly as the rows do, after random writes", async () => {
    const store = await MirrorStore.open(await location(kind));
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(write, { minLength: 1, maxLength: 8 }),
          fc.array(query, { minLength: 1, maxLength: 4 }),
          async (writes, queries) => {
            await store.purge("A");
            await store.purge("B");
            for (const w of writes) {
              if (w.kind === "upsert") await store.upsertTransactions(w.customer, w.items, 1);
              else if (w.kind === "delete") await store.deleteTransactions(w.customer, w.ids);
              else await store.purge(w.customer);
            }
            for (const q of queries) {
              const range = { fromMs: q.from, toMs: q.from + q.days * DAY_MS + q.extraMs };
              const summary = { ...range, timeZone: q.timeZone, top: 2 };
              expect(await summarizeFrom(store, q.customer, summary, "rollups")).toEqual(
                await summarizeFrom(store, q.customer, summary, "rows"),
              );
              expect(await stateProductTotalsFrom(store, q.customer, range, "rollups")).toEqual(
                await stateProductTotalsFrom(store, q.customer, range, "rows"),
              );
            }
            for (const c of ["A", "B"]) expect(await store.rowCount(c)).toBe((await store.extent(c)).rows);
            // The tables themselves: what the deltas left equals a rebuild from the rows (zero rows removed).
            const kept = await rollupTables(store);
            await store.transaction((trx) => rebuildRollups(trx));
            expect(kept).toEqual(await rollupTables(store));
          },
        ),
        { numRuns: 40, seed: 15 },
      );
    } finally {
      await store.close();
    }
  });

  it("an existing mirror (rows, no rollups yet) gains its rollups when opened", async () => {
    const where = await location(kind);
    // Schema 0001 only, as a mirror made before the rollups, with rows written straight into it.
    const db = await migratedOnly(where, (name) => name.startsWith("0001"));
    const items = fc.sample(transaction, { numRuns: 60, seed: 7 });
    const unique = [...new Map(items.map((t) => [t.id, t])).values()];
    await db
      .insertInto("mirror_transactions")
      .values(unique.map((t) => toRow("A", t, 1)))
      .execute();
    await db.destroy();

    const store = await MirrorStore.open(where);
    try {
      const range = { fromMs: BASE_MS - SPREAD_MS, toMs: BASE_MS + SPREAD_MS + 1 };
      const summary = { ...range, timeZone: "America/Chicago" };
      const fromRollups = await summarizeFrom(store, "A", summary, "rollups");
      expect(fromRollups.totals.transactions).toBe(unique.filter((t) => t.status !== "failed").length);
      expect(fromRollups).toEqual(await summarizeFrom(store, "A", summary, "rows"));
      expect(await stateProductTotalsFrom(store, "A", range, "rollups")).toEqual(
        await stateProductTotalsFrom(store, "A", range, "rows"),
      );
    } finally {
      await store.close();
    }
  });

  it.runIf(kind === "postgres")(
    "stay exact when two stores (two app instances) write the same customer's rows at once",
    async () => {
      const where = await location(kind);
      const [one, two] = await Promise.all([MirrorStore.open(where), MirrorStore.open(where)]);
      try {
        const batches = fc.sample(fc.array(transaction, { minLength: 4, maxLength: 8 }), { numRuns: 24, seed: 3 });
        await Promise.all(batches.map((items, i) => (i % 2 === 0 ? one : two).upsertTransactions("A", items, 1)));
        const kept = await rollupTables(one);
        await one.transaction((trx) => rebuildRollups(trx));
        expect(kept).toEqual(await rollupTables(one));
      } finally {
        await Promise.all([one.close(), two.close()]);
      }
    },
  );
});
