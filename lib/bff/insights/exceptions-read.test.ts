import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { groupHistory } from "@/lib/insights/exceptions/history";
import { EXCEPTION_RULES, isRuleOff } from "@/lib/insights/exceptions/rules";
import { largeFillOracle, unusualProductOracle } from "@/lib/insights/exceptions/rules-usual-oracle";
import type { CatalogStation, ExceptionThresholds, Purchase, RuleInput } from "@/lib/insights/exceptions/types";
import type { ObservedSpan } from "@/lib/insights/price-observations";
import { localDateOf } from "@/lib/mirror";
import type { LocalDateRange } from "@/lib/model";
import { mirrorStoresOfThisFile } from "@/test/mirror-stack";

import {
  catalogArb,
  type CatalogAsk,
  DAY0,
  fleetArb,
  periodArb,
  thresholdsArb,
  toTransaction,
} from "./exceptions-fleet";
import { historyRangeOf, type JudgedOutcome, judgePeriod } from "./exceptions-read";

// judgePeriod (the mirror's reads: the period's purchases, the history grouped by truck and product in SQL; then the
// rules) gives EXACTLY the verdicts of the plain computation: the same purchases picked by their local date in
// JavaScript, the history one fill at a time and each truck's "usual" gathered per fill as main did
// (rules-usual-oracle.ts) — for
// random fleets, periods, thresholds and catalogs, written through the store's own writes into both real stores.

const openStore = mirrorStoresOfThisFile();
const CUSTOMER = "PROP";
const DAY_MS = 86_400_000;
const DAY0_MS = Date.parse(`${DAY0}T00:00:00Z`);

interface Ask {
  query: LocalDateRange;
  historyQuery: LocalDateRange | null;
  catalog: ReadonlyMap<string, CatalogStation> | null;
  observed: RuleInput["observed"];
  thresholds: ExceptionThresholds;
}

const inDays = (p: Purchase, r: LocalDateRange) => {
  const date = localDateOf(p.atMs, p.offsetMin);
  return date >= r.from && date <= r.to;
};

/** The verdicts computed plainly from the fleet itself (no SQL): what judgePeriod must give. */
function judgePlainly(fleet: readonly Purchase[], ask: Ask): Map<string, JudgedOutcome> {
  const purchases = fleet
    .filter((p) => inDays(p, ask.query))
    .sort((a, b) => a.atMs - b.atMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const history = ask.historyQuery === null ? [] : fleet.filter((p) => inDays(p, ask.historyQuery ?? ask.query));
  const input = { ...ask, purchases, history: groupHistory(history) };
  const byId = new Map(purchases.map((p) => [p.id, p]));
  return new Map(
    EXCEPTION_RULES.map((rule) => {
      if (isRuleOff(rule, ask.thresholds) || (rule.needsCatalog && ask.catalog === null))
        return [rule.id, { hits: [], notJudged: null }];
      const outcome =
        rule.id === "large-fill"
          ? largeFillOracle({ ...input, history })
          : rule.id === "unusual-product"
            ? unusualProductOracle({ ...input, history })
            : rule.run(input);
      const hits = outcome.hits.map((h) => {
        const first = byId.get(h.transactionIds[0] ?? "");
        if (first === undefined) throw new RangeError("a hit outside the period");
        return {
          ...h,
          subject: { driverId: first.driverId, driverName: first.driverName, cardLast4: first.cardLast4 },
        };
      });
      return [rule.id, { hits, notJudged: outcome.notJudged }];
    }),
  );
}

/** Verdicts as comparable data: every hit with its sentence written out. */
const plain = (judged: Map<string, JudgedOutcome>) =>
  [...judged].map(([id, o]) => ({
    id,
    notJudged: o.notJudged,
    hits: o.hits.map(({ sentence, ...rest }) => ({ ...rest, sentence: sentence() })),
  }));

const catalogOf = (c: CatalogAsk) => {
  const places = new Map<string, CatalogStation>();
  c.places.forEach((place, i) => {
    if (place !== null) places.set(`st-${String(i)}`, place);
  });
  const prices =
    c.prices === null
      ? null
      : new Map<string, ObservedSpan[]>(
          c.prices.map((s, i) => {
            const fromMs = DAY0_MS + s.fromDay * DAY_MS;
            return [`st-${String(i)}`, [{ fromMs, toMs: fromMs + s.days * DAY_MS, priceMilli: s.priceMilli }]];
          }),
        );
  return { places, observed: prices === null ? null : { prices, windowMs: c.windowHours * 3_600_000 } };
};

describe.each(["sqlite", "postgres"] as const)("exceptions' reads and rules (%s store)", (kind) => {
  it("give exactly the plain computation's verdicts for random fleets, periods and thresholds", async () => {
    const store = await openStore(kind);
    const reached = new Map<string, number>();
    try {
      await fc.assert(
        fc.asyncProperty(
          fleetArb,
          periodArb,
          thresholdsArb,
          fc.option(catalogArb, { freq: 4 }),
          async (fleet, period, thresholds, catalogAsked) => {
            await store.purge(CUSTOMER);
            await store.upsertTransactions(CUSTOMER, fleet.map(toTransaction), Date.now());
            const c = catalogAsked === null ? null : catalogOf(catalogAsked);
            const ask: Ask = {
              query: period.query,
              historyQuery: period.withHistory ? historyRangeOf(period.query, thresholds) : null,
              catalog: c?.places ?? null,
              observed: c?.observed ?? null,
              thresholds,
            };
            const expected = plain(judgePlainly(fleet, ask));
            expect(plain(await judgePeriod(store, CUSTOMER, ask))).toEqual(expected);
            for (const r of expected) reached.set(r.id, (reached.get(r.id) ?? 0) + r.hits.length);
          },
        ),
        { numRuns: 40 },
      );
      // The fleets reach every rule: each one found something in some run (the "usual" rules too).
      for (const rule of EXCEPTION_RULES) expect(reached.get(rule.id), rule.id).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});
