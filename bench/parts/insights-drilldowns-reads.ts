/**
 * The reads behind one reply of the drill-down lists, a key's page and the overview summary from the local copy, in
 * the order the operations run them (lib/bff/insights/drilldown-service.ts, lib/bff/transactions/mirror-summary.ts): the
 * bench times what a request waits for, not one query of it. Inline here (the worker pool runs the same functions).
 */
import {
  detailFigures,
  keyKnown,
  type MirrorStore,
  rankedFigures,
  settlingByKey,
  settlingOf,
  spendTotals,
  summarize,
} from "@/lib/mirror";
import type { DrilldownDimension, LocalDateRange } from "@/lib/model/insight-drilldowns";
import { UTC_ZONE } from "@/lib/model/time-zones";

const DAY_MS = 86_400_000;
const CUSTOMER = "BENCH";
/** The overview's top drivers and stations (lib/bff/transactions/mirror-summary). */
const TOP = 5;

/** The period of equal length just before `range` (lib/bff/insights/range's rule). */
export function previousOf(range: LocalDateRange): LocalDateRange {
  const from = Date.parse(range.from);
  const days = (Date.parse(range.to) - from) / DAY_MS + 1;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: day(from - days * DAY_MS), to: day(from - DAY_MS) };
}

/** GET /api/drivers|trucks|cards: both periods ranked, the settling of the range and of each key. */
export function listReads(
  store: MirrorStore,
  dimension: Exclude<DrilldownDimension, "station">,
  range: LocalDateRange,
) {
  return Promise.all([
    rankedFigures(store, CUSTOMER, dimension, range),
    rankedFigures(store, CUSTOMER, dimension, previousOf(range), "rollups", undefined, false),
    settlingOf(store, CUSTOMER, range),
    settlingByKey(store, CUSTOMER, dimension, range),
  ]);
}

/** GET /api/drivers/[id] (and the truck's, card's, station's page): the key's label, both periods' detail, settling. */
export async function detailReads(
  store: MirrorStore,
  dimension: DrilldownDimension,
  key: string,
  range: LocalDateRange,
) {
  await keyKnown(store, CUSTOMER, dimension, key);
  return Promise.all([
    detailFigures(store, CUSTOMER, dimension, key, range),
    detailFigures(store, CUSTOMER, dimension, key, previousOf(range), "rollups", false),
    settlingOf(store, CUSTOMER, range, { dimension, key }),
  ]);
}

/** GET /api/transactions/summary from the local copy: the UTC summary, the previous totals, the local-date rankings. */
export function summaryReads(store: MirrorStore, range: LocalDateRange) {
  const fromMs = Date.parse(range.from);
  const toMs = Date.parse(range.to) + DAY_MS;
  const previous = previousOf(range);
  return Promise.all([
    summarize(store, CUSTOMER, { fromMs, toMs, timeZone: UTC_ZONE, top: 0 }),
    spendTotals(store, CUSTOMER, { fromMs: fromMs - (toMs - fromMs), toMs: fromMs }),
    rankedFigures(store, CUSTOMER, "driver", range, "rollups", TOP),
    rankedFigures(store, CUSTOMER, "station", range, "rollups", TOP),
    rankedFigures(store, CUSTOMER, "driver", previous, "rollups", 0),
    settlingOf(store, CUSTOMER, range),
  ]);
}
