/**
 * What the drill-down routes answer (`GET /api/drivers`, `/api/trucks`, `/api/cards`, their `[id]` details and
 * `GET /api/locations/[id]/insights`): one shape for every dimension, zod-free so the pages import it for free.
 * Decimals are exact strings (gallons 3 places, amounts 2, price per gallon 3, DEF ratio a percentage to 2).
 *
 * Spend rule (one for every drill-down figure, the summary's and the list totals' rule): completed and pending
 * purchases count, failed ones do not. Every figure counts a purchase on its local date (the purchase's own offset).
 */
import type { InsightCoverage, InsightPeriods, LocalDateRange } from "./insights";
import type { Settling } from "./metrics";

export const DRILLDOWN_DIMENSIONS = ["driver", "truck", "card", "station"] as const;
export type DrilldownDimension = (typeof DRILLDOWN_DIMENSIONS)[number];

export interface DrilldownFigures {
  /** Completed and pending purchases. */
  purchases: number;
  gallons: string;
  amount: string;
  /** Null when no fuel was bought. */
  averagePricePerGallon: string | null;
  /** DEF gallons bought with the purchases, and purchases of DEF itself (product class "def"). */
  defGallons: string;
  /** Gallons of diesel by the one product classifier (lib/model/product-classes; the DEF ratio's denominator). */
  dieselGallons: string;
  /** DEF gallons / diesel gallons as a percentage to 2 places, exact (half up); null without diesel. */
  defRatioPercent: string | null;
  /** The newest purchase's instant (ISO, UTC) and its local date; null when there is none. */
  lastPurchaseAt: string | null;
  lastPurchaseLocalDate: string | null;
}

export interface DrilldownRow extends DrilldownFigures {
  /** Driver id, truck id, card last four or station id. */
  key: string;
  /** Driver name, truck id, "•••• 1234", station name (the newest the range has). */
  name: string;
  /** A driver's truck, a truck's or card's driver, a station's "City, ST"; null when none. */
  detail: string | null;
}

export interface DrilldownRankedRow extends DrilldownRow {
  /** The same key's figures in the previous period (zeros when it bought nothing then); null when not covered. */
  previous: DrilldownFigures | null;
  /** This key's pending purchases in the period: its change cell says "settling" meanwhile. */
  settling: Settling;
}

export interface DrilldownListReply {
  dimension: Exclude<DrilldownDimension, "station">;
  periods: InsightPeriods;
  coverage: InsightCoverage;
  previousCoverage: InsightCoverage;
  /** Ranked by amount, largest first (ties by name). */
  rows: DrilldownRankedRow[];
  totals: DrilldownFigures;
  /** Null when the previous period is not covered at all. */
  previousTotals: DrilldownFigures | null;
  /** Pending purchases of the covered current period (lib/model/metrics): no change is claimed while they settle. */
  settling: Settling;
  /** Trucks only: purchases with no truck (not in `rows`, included in `totals`); null for other dimensions. */
  withoutKey: { purchases: number; amount: string } | null;
}

export interface DrilldownTrendPoint {
  /** The local dates the point covers, inclusive (a day, or a week of the range: the last one may be shorter). */
  from: string;
  to: string;
  purchases: number;
  gallons: string;
  amount: string;
}

export interface DrilldownDetailReply {
  dimension: DrilldownDimension;
  key: string;
  name: string;
  detail: string | null;
  periods: InsightPeriods;
  coverage: InsightCoverage;
  previousCoverage: InsightCoverage;
  totals: DrilldownFigures;
  previous: DrilldownFigures | null;
  /** This key's pending purchases in the covered current period: no change is claimed while they settle. */
  settling: Settling;
  /** Per local day, or per week from the range's first day when the covered range is longer than 62 days. */
  trend: { unit: "day" | "week"; points: DrilldownTrendPoint[] };
  /** Its stations (driver, truck, card) or its drivers (station), ranked by amount. */
  breakdown: { dimension: "station" | "driver"; rows: DrilldownRow[] };
}

/** The longest covered range shown per day; longer ones per week. */
export const TREND_DAYS_MAX = 62;

export type { LocalDateRange };
