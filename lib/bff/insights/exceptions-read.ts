import "server-only";

import { EXCEPTION_RULES, isRuleOff } from "@/lib/insights/exceptions/rules";
import type {
  CatalogStation,
  ExceptionThresholds,
  Purchase,
  RuleInput,
  SubjectHit,
  TruckHistory,
} from "@/lib/insights/exceptions/types";
import { localDayWhere, type MirrorStore, readFillHistory } from "@/lib/mirror";
import { addDays, type LocalDateRange, type Station } from "@/lib/model";
import type { ExceptionRuleId } from "@/lib/model/insight-exceptions";

/**
 * What the exception rules read of the mirror: a period's purchases (every status, oldest first) and the narrow
 * history the "usual" rules compare with (fills with a truck: truck, product, gallons). Both by local date.
 */

const STATUSES = new Set(["completed", "pending", "failed"]);

const asStatus = (status: string): Purchase["status"] =>
  STATUSES.has(status) ? (status as Purchase["status"]) : "pending";

async function readPurchases(store: MirrorStore, customerId: string, range: LocalDateRange): Promise<Purchase[]> {
  const rows = await store.db
    .selectFrom("mirror_transactions")
    .select([
      "id",
      "at_ms",
      "local_offset_min",
      "status",
      "product",
      "gallons_milli",
      "price_milli",
      "station_id",
      "station_name",
      "driver_id",
      "driver_name",
      "truck_id",
      "card_last4",
      "def_gallons_milli",
    ])
    .where((eb) => eb.and([eb("customer_id", "=", customerId), localDayWhere(eb, range)]))
    .orderBy("at_ms")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    // pg reads bigint as a string; epoch milliseconds are exact as doubles.
    atMs: Number(r.at_ms),
    offsetMin: r.local_offset_min,
    status: asStatus(r.status),
    product: r.product,
    gallonsMilli: r.gallons_milli,
    priceMilli: r.price_milli,
    stationId: r.station_id,
    stationName: r.station_name,
    driverId: r.driver_id,
    driverName: r.driver_name,
    truckId: r.truck_id,
    cardLast4: r.card_last4,
    defGallonsMilli: r.def_gallons_milli ?? 0,
  }));
}

/** The history as the "usual" rules read it: grouped by truck and product in SQL (lib/mirror/fill-history). */
const readHistory = (store: MirrorStore, customerId: string, range: LocalDateRange): Promise<TruckHistory> =>
  readFillHistory(store, customerId, range);

const NO_HISTORY: TruckHistory = new Map();

/** The catalog by station id, as the rules read it: the place (the prices come from the mirror's observations). */
export function catalogIndex(stations: readonly Station[]): Map<string, CatalogStation> {
  return new Map(stations.map((s) => [s.id, { lat: s.lat, lng: s.lng }]));
}

/** The days whose fills are a period's "usual": the `historyDays` before it. */
export const historyRangeOf = (query: LocalDateRange, thresholds: ExceptionThresholds): LocalDateRange => ({
  from: addDays(query.from, -thresholds.historyDays),
  to: addDays(query.from, -1),
});

/** One rule's hits over a period, each with whom it is grouped under, and what the rule could not judge. */
export interface JudgedOutcome {
  hits: SubjectHit[];
  notJudged: string | null;
}

/**
 * Every rule over one period's days (`query`) with the history's (`historyQuery`, null: none): the computation of
 * GET /api/exceptions, apart from the session so the bench times it alone. A rule that needs the catalog finds no
 * hit when `catalog` is null, nor does a rule the thresholds turn off (the operation says it did not run, and why).
 */
export async function judgePeriod(
  store: MirrorStore,
  customerId: string,
  p: {
    query: LocalDateRange;
    historyQuery: LocalDateRange | null;
    catalog: ReadonlyMap<string, CatalogStation> | null;
    observed: RuleInput["observed"];
    thresholds: ExceptionThresholds;
  },
): Promise<Map<ExceptionRuleId, JudgedOutcome>> {
  const [purchases, history] = await Promise.all([
    readPurchases(store, customerId, p.query),
    p.historyQuery === null ? Promise.resolve(NO_HISTORY) : readHistory(store, customerId, p.historyQuery),
  ]);
  const input = { purchases, history, catalog: p.catalog, observed: p.observed, thresholds: p.thresholds };
  const byId = new Map(purchases.map((x) => [x.id, x]));
  return new Map(
    EXCEPTION_RULES.map((rule) => {
      if (isRuleOff(rule, p.thresholds) || (rule.needsCatalog && p.catalog === null))
        return [rule.id, { hits: [], notJudged: null }];
      const outcome = rule.run(input);
      // A hit is grouped under its first purchase's driver and card (every hit has at least one purchase).
      const hits = outcome.hits.map((h): SubjectHit => {
        const first = byId.get(h.transactionIds[0] ?? "");
        if (first === undefined) throw new RangeError(`hit of ${h.rule} names a purchase outside the period`);
        return {
          ...h,
          subject: { driverId: first.driverId, driverName: first.driverName, cardLast4: first.cardLast4 },
        };
      });
      return [rule.id, { hits, notJudged: outcome.notJudged }];
    }),
  );
}
