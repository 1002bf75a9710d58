import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { MIRROR_CASES, mirrorStoresOfThisFile, type MirrorUpstream, startMirrorUpstream } from "@/test/mirror-stack";

import { lastCatalogWalkMs, readCatalog, recordCatalogWalk, stationPriceOn } from "./catalog";

// Price history (issue 16 item 4): the real sandbox's catalog (both API shapes) recorded in both real stores; a price
// changed in the sandbox's own database between two walks gives exactly one new record, an unchanged catalog none.

const openStore = mirrorStoresOfThisFile();

describe.each(MIRROR_CASES)("the catalog's price history (%s profile, %s store)", (profile, kind) => {
  let stack: MirrorUpstream;
  beforeAll(async () => {
    stack = await startMirrorUpstream(profile);
  });
  afterAll(() => stack.upstream.stop());

  const walk = () => stack.client.listAllLocations(stack.pfl, {}, { priority: "interactive" });

  it("records a walk once: an unchanged catalog adds nothing, a changed price one record", async () => {
    const store = await openStore(kind);
    try {
      const first = await walk();
      const priced = first.filter((s) => s.price !== null);
      expect(priced.length).toBeGreaterThan(100);
      const t1 = Date.parse("2026-11-20T12:00:00Z");
      expect(await recordCatalogWalk(store, "PFL", first, t1)).toEqual({
        stations: first.length,
        priceChanges: priced.length,
      });
      // The same walk again, and a second unchanged walk: no record.
      expect((await recordCatalogWalk(store, "PFL", first, t1)).priceChanges).toBe(0);
      expect((await recordCatalogWalk(store, "PFL", await walk(), t1 + 3_600_000)).priceChanges).toBe(0);
      expect(await lastCatalogWalkMs(store, "PFL")).toBe(t1 + 3_600_000);

      // The provider changes one station's price (its own database): the next walk records that one change.
      const target = priced[7];
      if (!target) throw new Error("the sandbox's catalog has fewer than 8 priced stations");
      const stampedAt = "2026-11-21T08:30:00Z";
      const sandboxDb = new Database(stack.upstream.dbPath);
      try {
        sandboxDb
          .prepare("UPDATE stations SET diesel_milli = diesel_milli + 123, price_updated_at = ? WHERE id = ?")
          .run(stampedAt, target.id);
      } finally {
        sandboxDb.close();
      }
      const t2 = Date.parse("2026-11-21T09:00:00Z");
      const second = await walk();
      const changed = second.find((s) => s.id === target.id);
      expect(changed?.price).not.toBe(target.price);
      expect(await recordCatalogWalk(store, "PFL", second, t2)).toEqual({ stations: second.length, priceChanges: 1 });

      const catalog = await readCatalog(store, "PFL");
      expect(catalog.stations).toHaveLength(first.length);
      expect(catalog.lastWalkMs).toBe(t2);
      const records = catalog.prices.get(target.id) ?? [];
      expect(records.map((r) => r.updatedMs)).toEqual([Date.parse(target.priceUpdatedAt ?? ""), Date.parse(stampedAt)]);
      // Exact thousandths, both ways.
      const before = records[0]?.priceMilli ?? 0;
      expect(records[1]?.priceMilli).toBe(before + 123);
      expect(await stationPriceOn(store, "PFL", target.id, "2026-11-21", 0)).toBe(changed?.price);
      expect(await stationPriceOn(store, "PFL", target.id, "2026-11-20", 0)).toBe(target.price);
      const station = catalog.stations.find((s) => s.id === target.id);
      expect(station).toMatchObject({ name: target.name, lat: target.lat, lng: target.lng, current: true });

      // Another customer's catalog is its own; the purge (retention) takes the customer's catalog with it.
      await recordCatalogWalk(store, "CHI", first.slice(0, 3), t1);
      await store.purge("PFL");
      expect((await readCatalog(store, "PFL")).stations).toHaveLength(0);
      expect(await lastCatalogWalkMs(store, "PFL")).toBeNull();
      expect((await readCatalog(store, "CHI")).stations).toHaveLength(3);
    } finally {
      await store.close();
    }
  });
});
