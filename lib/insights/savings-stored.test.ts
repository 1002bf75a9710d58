import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { localDateOf, type MirrorStore, readCatalog, recordCatalogWalk } from "@/lib/mirror";
import { fromMinorUnits, type Station, toMinorUnits, type Transaction } from "@/lib/model";
import {
  MIRROR_CASES,
  mirrorStoresOfThisFile,
  type MirrorUpstream,
  startMirrorUpstream,
  upstreamWalk,
} from "@/test/mirror-stack";

import { savingsFor } from "./savings-query";
import { refreshComparisons } from "./savings-stored";
import { storedSavingsFor } from "./savings-stored-read";

// The stored comparisons give EXACTLY savingsFor's figures and top ten (issue 25 item 7): the real sandbox's fleet
// (both API shapes) mirrored into both real stores through the store's own writes, then random sequences of catalog
// walks (prices moved, stamped some hours before the walk), fills edited or settled or deleted as a sync would write
// them, and changed parameters; after each sequence every period and scope asked is compared with the computation
// over the mirror's rows and recorded catalog.

const openStore = mirrorStoresOfThisFile();
const HOUR_MS = 3_600_000;
const CUSTOMER = "PFL";

type Action =
  | { walk: { afterHours: number; agoHours: number; changes: { station: number; delta: number }[] } }
  | { edit: { tx: number; delta: number; settle: boolean } }
  | { remove: { tx: number } };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    walk: fc.record({
      afterHours: fc.integer({ min: 1, max: 24 * 10 }),
      agoHours: fc.integer({ min: 0, max: 72 }),
      changes: fc.array(fc.record({ station: fc.nat({ max: 10_000 }), delta: fc.integer({ min: -400, max: 400 }) }), {
        maxLength: 40,
      }),
    }),
  }),
  fc.record({
    edit: fc.record({ tx: fc.nat({ max: 100_000 }), delta: fc.integer({ min: -500, max: 500 }), settle: fc.boolean() }),
  }),
  fc.record({ remove: fc.record({ tx: fc.nat({ max: 100_000 }) }) }),
);

const moved = (price: string | null, delta: number): string | null =>
  price === null ? null : fromMinorUnits(BigInt(Math.max(1_000, Number(toMinorUnits(price, 3)) + delta)), 3);

describe.each(MIRROR_CASES)("stored savings comparisons (%s profile, %s store)", (profile, kind) => {
  let stack: MirrorUpstream;
  let store: MirrorStore;
  let fills: Transaction[];
  let catalog: Station[];
  let walkMs: number;
  beforeAll(async () => {
    stack = await startMirrorUpstream(profile);
    store = await openStore(kind);
    fills = await upstreamWalk(stack.client, stack.pfl);
    await store.upsertTransactions(CUSTOMER, fills, Date.now());
    catalog = await stack.client.listAllLocations(stack.pfl, {}, { priority: "interactive" });
    // The first walk a little after the oldest fill: the older fills are "not compared", the rest against walks.
    walkMs = Math.min(...fills.map((t) => Date.parse(t.at))) + 20 * 24 * HOUR_MS;
    // The sandbox stamps its prices at its own anchor: here they are stamped as seen by a walk among the fills.
    const stamp = new Date(walkMs - 12 * HOUR_MS).toISOString();
    catalog = catalog.map((s) => ({ ...s, priceUpdatedAt: stamp }));
    await recordCatalogWalk(store, CUSTOMER, catalog, walkMs);
  });
  afterAll(async () => {
    await store.close();
    await stack.upstream.stop();
  });

  async function apply(a: Action): Promise<void> {
    if ("walk" in a) {
      walkMs += a.walk.afterHours * HOUR_MS;
      const changed = new Map(a.walk.changes.map((c) => [c.station % catalog.length, c.delta]));
      const stamp = new Date(walkMs - a.walk.agoHours * HOUR_MS).toISOString();
      catalog = catalog.map((s, i) => {
        const delta = changed.get(i);
        return delta === undefined ? s : { ...s, price: moved(s.price, delta), priceUpdatedAt: stamp };
      });
      await recordCatalogWalk(store, CUSTOMER, catalog, walkMs);
    } else if ("edit" in a) {
      const i = a.edit.tx % fills.length;
      const t = fills[i];
      if (t === undefined) return;
      const next: Transaction = {
        ...t,
        pricePerGallon: moved(t.pricePerGallon, a.edit.delta) ?? t.pricePerGallon,
        status: a.edit.settle ? "completed" : "pending",
      };
      fills[i] = next;
      await store.upsertTransactions(CUSTOMER, [next], Date.now());
    } else {
      const i = a.remove.tx % fills.length;
      const t = fills[i];
      if (t === undefined) return;
      fills.splice(i, 1);
      await store.deleteTransactions(CUSTOMER, [t.id]);
    }
  }

  it("sums exactly what savingsFor computes, after any sequence of walks and sync writes", async () => {
    const dates = [...new Set(fills.map((t) => localDateOf(Date.parse(t.at), null)))].sort();
    const date = fc.nat({ max: dates.length - 1 }).map((i) => dates[i] ?? "");
    await fc.assert(
      fc.asyncProperty(
        fc.array(action, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(10, 25),
        fc.constantFrom(6, 24),
        fc.array(fc.tuple(date, date, fc.constantFrom("all", "driver", "station"), fc.nat()), {
          minLength: 1,
          maxLength: 4,
        }),
        async (actions, radiusMiles, windowHours, asks) => {
          const params = { radiusMiles, windowMs: windowHours * HOUR_MS };
          // Compared after every step: a walk or write that failed to mark a fill it changes shows at once (a
          // change of parameters marks every fill, so it would hide it).
          for (const a of [null, ...actions]) {
            if (a !== null) await apply(a);
            await refreshComparisons(store, CUSTOMER, params);
            const recorded = await readCatalog(store, CUSTOMER);
            for (const [from, to, scopeKind, pick] of asks) {
              const range = from <= to ? { from, to } : { from: to, to: from };
              const t = fills[pick % fills.length];
              const scope =
                scopeKind === "driver"
                  ? { driverId: t?.driver.id }
                  : scopeKind === "station"
                    ? { stationId: t?.station.id }
                    : {};
              const direct = await savingsFor(store, CUSTOMER, range, scope, recorded, params);
              const stored = await storedSavingsFor(store, CUSTOMER, range, scope);
              expect(stored.figures).toEqual(direct.figures);
              expect(stored.top).toEqual(direct.top);
            }
          }
        },
      ),
      { numRuns: 8 },
    );
  });

  it("has compared something: the property is not checked on empty figures only", async () => {
    await refreshComparisons(store, CUSTOMER, { radiusMiles: 25, windowMs: 24 * HOUR_MS });
    const all = { from: "1970-01-01", to: "9999-12-31" };
    const { figures, top } = await storedSavingsFor(store, CUSTOMER, all, {});
    expect(figures.fills).toBeGreaterThan(0);
    expect(figures.notCompared.noObservation.fills).toBeGreaterThan(0);
    expect(top.length).toBeGreaterThan(0);
  });
});
