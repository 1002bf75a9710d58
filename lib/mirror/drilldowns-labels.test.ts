import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Transaction } from "@/lib/model";
import { mirrorStoresOfThisFile } from "@/test/mirror-stack";

import { detailFigures, rankedFigures } from "./drilldowns";
import type { MirrorStore } from "./store";

/**
 * The drill-downs' names and last purchase, on both real stores: every key's name is read from its newest row in one
 * statement for the whole ranking (not one query per key), and a key's last purchase gives the time and the local
 * date of the same purchase even when a purchase with a larger offset has a later local date.
 */

const openStore = mirrorStoresOfThisFile();

const tx = (
  i: number,
  at: string,
  offset: number | null,
  driver: { id: string; name: string },
  station = "s1",
): Transaction => ({
  id: `t${String(i)}`,
  reference: `FF${String(i)}`,
  at,
  localOffsetMinutes: offset,
  status: "completed",
  product: "diesel",
  gallons: "10.000",
  pricePerGallon: "3.999",
  amount: "39.99",
  station: { id: station, name: `Station ${station}`, locNum: "1", city: "Joliet", state: "IL" },
  driver: { ...driver, truckId: `T-${driver.id}` },
  card: { last4: "0001" },
  def: null,
});

/** The store, with every statement it runs counted (a Kysely plugin sees each query once). */
function counted(store: MirrorStore): { store: MirrorStore; statements: () => number } {
  let n = 0;
  // Results, not transformQuery: a statement with subqueries (a union of blocks and days) passes every part of it
  // through transformQuery, but comes back once.
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: (args) => {
      n++;
      return Promise.resolve(args.result);
    },
  };
  const view = Object.create(store, { db: { value: store.db.withPlugin(plugin) } }) as MirrorStore;
  return { store: view, statements: () => n };
}

describe.each(["sqlite", "postgres"] as const)("drill-down names and last purchase (%s store)", (kind) => {
  let store: MirrorStore;
  beforeAll(async () => {
    store = await openStore(kind);
  });
  afterAll(() => store.close());

  it("names every key from its newest row in one statement for the whole ranking", async () => {
    const rows: Transaction[] = [];
    for (let d = 0; d < 12; d++) {
      // The older row has the old name; the newest row (outside the range) the new one.
      rows.push(tx(rows.length, "2026-05-10T12:00:00Z", 0, { id: `d${String(d)}`, name: `Old ${String(d)}` }));
      rows.push(tx(rows.length, "2026-06-20T12:00:00Z", 0, { id: `d${String(d)}`, name: `New ${String(d)}` }));
    }
    await store.upsertTransactions("C-labels", rows, 1);
    const { store: view, statements } = counted(store);
    const got = await rankedFigures(view, "C-labels", "driver", { from: "2026-05-01", to: "2026-05-31" });
    expect(got.rows).toHaveLength(12);
    for (const r of got.rows) expect(r.name).toBe(`New ${r.key.slice(1)}`);
    expect(got.rows.find((r) => r.key === "d3")?.detail).toBe("T-d3");
    // One statement for the sums, one for the 12 names.
    expect(statements()).toBe(2);
  });

  it("gives the last purchase's time and local date from the same purchase", async () => {
    const ann = { id: "ann", name: "Ann" };
    const bob = { id: "bob", name: "Bob" };
    // Ann's later purchase (12:00Z, UTC−10: local 2026-05-10) comes after one whose +14 h offset puts its local date
    // a day later (10:00Z, local 2026-05-11 00:00): the last purchase is the 12:00Z one, on local 2026-05-10.
    const rows = [
      tx(1, "2026-05-10T10:00:00Z", 840, ann),
      tx(2, "2026-05-10T12:00:00Z", -600, ann, "s2"),
      tx(3, "2026-05-10T11:00:00Z", 840, bob),
    ];
    await store.upsertTransactions("C-last", rows, 1);
    const range = { from: "2026-05-09", to: "2026-05-12" };
    const ranked = await rankedFigures(store, "C-last", "driver", range);
    const annRow = ranked.rows.find((r) => r.key === "ann");
    expect(annRow).toMatchObject({ lastPurchaseAt: "2026-05-10T12:00:00.000Z", lastPurchaseLocalDate: "2026-05-10" });
    expect(ranked.rows.find((r) => r.key === "bob")).toMatchObject({
      lastPurchaseAt: "2026-05-10T11:00:00.000Z",
      lastPurchaseLocalDate: "2026-05-11",
    });
    // The totals: the newest purchase of all (Ann's 12:00Z), with its own local date, not Bob's later one.
    expect(ranked.totals).toMatchObject({
      lastPurchaseAt: "2026-05-10T12:00:00.000Z",
      lastPurchaseLocalDate: "2026-05-10",
    });
    const detail = await detailFigures(store, "C-last", "driver", "ann", range);
    expect(detail.totals).toMatchObject({
      lastPurchaseAt: "2026-05-10T12:00:00.000Z",
      lastPurchaseLocalDate: "2026-05-10",
    });
  });
});
