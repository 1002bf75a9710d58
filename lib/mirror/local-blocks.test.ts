import fc from "fast-check";
import { describe, expect, it } from "vitest";

import type { Transaction } from "@/lib/model";
import { migratedOnly, mirrorPlacesOfThisFile, type StoreKind } from "@/test/mirror-places";

import { detailFigures, rankedFigures } from "./drilldowns";
import { BLOCK_SPANS, planLocalDays, rebuildLocalBlocks } from "./local-blocks";
import { rebuildLocalRollups } from "./local-rollups";
import { toRow } from "./rows";
import { MirrorStore } from "./store";
import { DAY_MS } from "./sync-days";

/**
 * The local-day rollup's blocks (./local-blocks.ts) are exact: a range's plan covers each of its days once; after
 * random upserts (new rows, status, time and key changes, repeated ids), deletions and purges over ten months, the
 * block table equals a rebuild from the day rows (sums and the newest purchase with its local date), and rankings and
 * one key's details over ranges of up to 400 days read the same figures from the rollups as from the rows. Both real
 * stores: SQLite in a temporary file, PostgreSQL started in a temporary directory.
 */

const placeOf = mirrorPlacesOfThisFile("local-blocks");
const openStore = async (kind: StoreKind) => MirrorStore.open(await placeOf(kind));

describe("planLocalDays", () => {
  it("covers every day of a range once, with whole aligned blocks", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30_000 }), fc.integer({ min: 0, max: 4_000 }), (d0, days) => {
        const covered: number[] = [];
        for (const p of planLocalDays(d0, d0 + days))
          for (let b = p.from; b < p.to; b++) for (let d = b * p.span; d < (b + 1) * p.span; d++) covered.push(d);
        expect(covered.sort((x, y) => x - y)).toEqual(Array.from({ length: days }, (_, i) => d0 + i));
      }),
      { numRuns: 300, seed: 25 },
    );
    // A year is mostly blocks: at most a handful of parts, not 366 days.
    expect(planLocalDays(20_000, 20_366).length).toBeLessThanOrEqual(2 * BLOCK_SPANS.length + 1);
  });
});

const BASE_MS = Date.parse("2026-03-08T00:00:00Z");
/** About 5.3 days apart over ±10 months: rows fall into every block length, several share a block. */
const STEP_MS = 460_000_000;
const instant = fc.integer({ min: -60, max: 60 }).map((i) => BASE_MS + i * STEP_MS);

const transaction = fc
  .record({
    id: fc.integer({ min: 0, max: 15 }),
    // A few ids share an instant: the newest of a block must survive the removal of one of them.
    at: fc.oneof(instant, fc.constant(BASE_MS)),
    offset: fc.constantFrom(null, -300, 345, 840, -720),
    status: fc.constantFrom("completed" as const, "pending" as const, "failed" as const),
    product: fc.oneof({ arbitrary: fc.constant("diesel"), weight: 4 }, fc.constantFrom("Unleaded 87", "DEF")),
    driver: fc.integer({ min: 0, max: 2 }),
    truck: fc.constantFrom(null, "T1", "T2"),
    card: fc.constantFrom("1234", "9876"),
    station: fc.integer({ min: 0, max: 2 }),
    cents: fc.integer({ min: 1, max: 99_999 }),
    milli: fc.integer({ min: 1, max: 200_000 }),
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
      state: "OK",
    },
    driver: { id: `d${String(r.driver)}`, name: `Driver ${String(r.driver)}`, truckId: r.truck },
    card: { last4: r.card },
    def: null,
  }));

const customer = fc.constantFrom("A", "B");
const write = fc.oneof(
  fc.record({ kind: fc.constant("upsert" as const), customer, items: fc.array(transaction, { maxLength: 8 }) }),
  fc.record({
    kind: fc.constant("delete" as const),
    customer,
    ids: fc.array(
      fc.integer({ min: 0, max: 15 }).map((i) => `t${String(i)}`),
      { maxLength: 4 },
    ),
  }),
  fc.record({ kind: fc.constant("purge" as const), customer }),
  // A row the mirror holds comes back with another status or time (a pending fill completing, a corrected time).
  fc.record({
    kind: fc.constant("change" as const),
    customer,
    id: fc.integer({ min: 0, max: 15 }).map((i) => `t${String(i)}`),
    status: fc.constantFrom("completed" as const, "pending" as const, "failed" as const),
    at: fc.option(instant),
  }),
);

const dateOf = (days: number) => new Date(BASE_MS + days * DAY_MS).toISOString().slice(0, 10);
const range = fc
  .record({ from: fc.integer({ min: -330, max: 300 }), days: fc.integer({ min: 0, max: 400 }) })
  .map((r) => ({ from: dateOf(r.from), to: dateOf(r.from + r.days) }));

const KEYS = [
  ["driver", "d0"],
  ["truck", "T1"],
  ["card", "1234"],
  ["station", "s1"],
] as const;

async function blockTable(store: MirrorStore) {
  const rows = await store.db
    .selectFrom("mirror_local_block_totals")
    .selectAll()
    .orderBy("customer_id")
    .orderBy("dimension")
    .orderBy("span_days")
    .orderBy("block")
    .orderBy("key")
    .orderBy("product")
    .orderBy("status")
    .execute();
  return rows.map((r) => JSON.stringify(Object.values(r).map(String)));
}

describe.each(["sqlite", "postgres"] as const)("the local-day blocks (%s store)", (kind) => {
  it("equal a rebuild from the day rows, and rankings and details read the rows' figures, after random writes", async () => {
    const store = await openStore(kind);
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
            for (const q of queries)
              for (const [dimension, key] of KEYS) {
                expect(await rankedFigures(store, q.customer, dimension, q.range, "rollups")).toEqual(
                  await rankedFigures(store, q.customer, dimension, q.range, "rows"),
                );
                expect(await detailFigures(store, q.customer, dimension, key, q.range, "rollups")).toEqual(
                  await detailFigures(store, q.customer, dimension, key, q.range, "rows"),
                );
              }
            const kept = await blockTable(store);
            await store.transaction((trx) => rebuildLocalBlocks(trx));
            expect(kept).toEqual(await blockTable(store));
          },
        ),
        { numRuns: 80, seed: 25 },
      );
    } finally {
      await store.close();
    }
  });

  it("an existing mirror (schema 0005, rows and day rollup) gains the blocks computed from its day rows when opened", async () => {
    const where = await placeOf(kind);
    const db = await migratedOnly(where, (n) => n < "0006");
    const items = [...new Map(fc.sample(transaction, { numRuns: 80, seed: 7 }).map((t) => [t.id, t])).values()];
    await db
      .insertInto("mirror_transactions")
      .values(items.map((t) => toRow("A", t, 1)))
      .execute();
    await rebuildLocalRollups(db);
    await db.destroy();

    const store = await MirrorStore.open(where);
    try {
      const year = { from: dateOf(-330), to: dateOf(35) };
      for (const [dimension] of KEYS)
        expect(await rankedFigures(store, "A", dimension, year, "rollups")).toEqual(
          await rankedFigures(store, "A", dimension, year, "rows"),
        );
      expect((await blockTable(store)).length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});
