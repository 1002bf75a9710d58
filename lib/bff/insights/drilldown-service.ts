import "server-only";

import { z } from "zod";

import { keyKnown, labelOf, settlingByKey, settlingOf, ZERO_FIGURES } from "@/lib/mirror";
import type {
  DrilldownDetailReply,
  DrilldownDimension,
  DrilldownFigures,
  DrilldownListReply,
} from "@/lib/model/insight-drilldowns";
import { NOT_SETTLING } from "@/lib/model/metrics";

import { BffError } from "../http/errors";
import type { OperationContext } from "../http/operation";
import { ID, parseQueryValues, queryValues } from "../http/query";
import { now } from "../platform/clock";
import { utcDate } from "../platform/clock";
import type { MirrorAccess } from "../platform/mirror-access";
import { readOffThread } from "../platform/off-thread/pool";
import { quoted } from "../platform/quoted";
import { insightPeriodsOf, insightRangeShape } from "./range";
import { insightMirror } from "./serving";

/**
 * The drill-downs' one service, generic over the dimension (driver, truck, card, station): the range of the contract
 * (a quarter, or from–to local dates, default the last 30 days), the mirror's coverage of it and of the previous
 * period, and the figures of lib/mirror/drilldowns over exactly the covered part (never a silent partial number).
 */

export const DrilldownRangeQuery = z.object(insightRangeShape).strict();
export type DrilldownRangeQuery = z.infer<typeof DrilldownRangeQuery>;

const WORDS: Record<DrilldownDimension, { id: string; what: string }> = {
  driver: { id: "The driver id", what: "driver" },
  truck: { id: "The truck id", what: "truck" },
  card: { id: "The card's last four digits", what: "card" },
  station: { id: "The station id", what: "station" },
};

/** The key in the path, checked: a card is its last four digits, the others an upstream id. */
export function drilldownKey(dimension: DrilldownDimension, raw: string): string {
  const ok = dimension === "card" ? /^\d{4}$/.test(raw) : ID.test(raw);
  if (!ok)
    throw new BffError(
      "bad_request",
      dimension === "card"
        ? `${WORDS.card.id} must be four digits, e.g. 4480; ${quoted(raw)} is not.`
        : `${WORDS[dimension].id} must be letters, digits, - or _ (at most 100); ${quoted(raw)} is not.`,
    );
  return raw;
}

/** Path key and query of a detail route, both checked (400 with a sentence for either). */
export const detailInput =
  (dimension: DrilldownDimension, name: "id" | "last4") =>
  (params: Record<string, string>, query: URLSearchParams) => ({
    key: drilldownKey(dimension, params[name] ?? ""),
    range: parseQueryValues(queryValues(query), DrilldownRangeQuery),
  });

const periodsOf = (q: DrilldownRangeQuery) => insightPeriodsOf(q, utcDate(now()));

const strip = (f: DrilldownFigures): DrilldownFigures => ({
  purchases: f.purchases,
  gallons: f.gallons,
  amount: f.amount,
  averagePricePerGallon: f.averagePricePerGallon,
  defGallons: f.defGallons,
  dieselGallons: f.dieselGallons,
  defRatioPercent: f.defRatioPercent,
  lastPurchaseAt: f.lastPurchaseAt,
  lastPurchaseLocalDate: f.lastPurchaseLocalDate,
});

/** `GET /api/drivers|trucks|cards`: every key ranked, each with its previous period's figures. */
export async function drilldownList(
  ctx: OperationContext,
  dimension: Exclude<DrilldownDimension, "station">,
  q: DrilldownRangeQuery,
): Promise<DrilldownListReply> {
  const periods = periodsOf(q);
  const current = await insightMirror(ctx, periods.current);
  const previous = await insightMirror(ctx, periods.previous);
  const { store, customerId } = current.mirror;
  const [figures, before, settling, settlingKeys] = await Promise.all([
    readOffThread(store, "drilldowns.ranked", [customerId, dimension, current.query]),
    // The previous period's figures per key only (no names: `strip` keeps the figures).
    readOffThread(store, "drilldowns.ranked", [customerId, dimension, previous.query, "rollups", undefined, false]),
    settlingOf(store, customerId, current.query),
    settlingByKey(store, customerId, dimension, current.query),
  ]);
  const covered = previous.query !== null;
  const beforeByKey = new Map(before.rows.map((r) => [r.key, strip(r)]));
  return {
    dimension,
    periods,
    coverage: current.coverage,
    previousCoverage: previous.coverage,
    rows: figures.rows.map((r) => ({
      ...r,
      previous: covered ? (beforeByKey.get(r.key) ?? ZERO_FIGURES) : null,
      settling: settlingKeys.get(r.key) ?? NOT_SETTLING,
    })),
    totals: figures.totals,
    previousTotals: covered ? before.totals : null,
    settling,
    withoutKey:
      dimension === "truck" ? { purchases: figures.withoutKey.purchases, amount: figures.withoutKey.amount } : null,
  };
}

/** Whether the mirror holds the customer's whole history (so a key it has no row of has none upstream either). */
export const historyComplete = (state: MirrorAccess["state"]) =>
  state.lastHeadSyncMs !== null && (state.backfill.complete || state.coverageFromMs === null);

/**
 * One key's detail. A key the customer's whole history has no row of is a 404 with a sentence; a known key without
 * purchases in the range answers zeros. While the history is still loading an unseen key may have older purchases, so
 * it answers the range's zeros (exact for the covered days) and the coverage's sentence, not "no such driver".
 */
export async function drilldownDetail(
  ctx: OperationContext,
  dimension: DrilldownDimension,
  input: { key: string; range: DrilldownRangeQuery },
): Promise<DrilldownDetailReply> {
  const periods = periodsOf(input.range);
  const current = await insightMirror(ctx, periods.current);
  const previous = await insightMirror(ctx, periods.previous);
  const { store, customerId } = current.mirror;
  const known = await keyKnown(store, customerId, dimension, input.key);
  if (known === null && historyComplete(current.mirror.state))
    throw new BffError(
      "not_found",
      dimension === "station"
        ? "Your fleet has no purchase at this station in your transactions."
        : `No ${WORDS[dimension].what} ${quoted(input.key)} has any purchase in your transactions. Check the link, or pick one from the ${WORDS[dimension].what}s page.`,
    );
  const label = known ?? labelOf(dimension, input.key, {});
  const [figures, before, settling] = await Promise.all([
    readOffThread(store, "drilldowns.detail", [customerId, dimension, input.key, current.query]),
    previous.query === null
      ? Promise.resolve(null)
      : // Its totals only (the reply keeps nothing else of it): no breakdown.
        readOffThread(store, "drilldowns.detail", [customerId, dimension, input.key, previous.query, "rollups", false]),
    settlingOf(store, customerId, current.query, { dimension, key: input.key }),
  ]);
  return {
    dimension,
    key: input.key,
    ...label,
    periods,
    coverage: current.coverage,
    previousCoverage: previous.coverage,
    totals: figures.totals,
    previous: before === null ? null : strip(before.totals),
    settling,
    trend: figures.trend,
    breakdown: figures.breakdown,
  };
}
