import type { ObservedPrices } from "@/lib/insights/price-observations";
import type { ExceptionContextFilter, ExceptionRuleId } from "@/lib/model/insight-exceptions";

/**
 * What the exception rules read of a mirrored purchase: exact integers (thousandths of a gallon and of a dollar per
 * gallon), the instant and the offset the upstream gave with it (the purchase's local time is `atMs + offsetMin`).
 */
export interface Purchase {
  id: string;
  atMs: number;
  /** Minutes east of UTC; null when the upstream said Z (then the local time is UTC). */
  offsetMin: number | null;
  status: "completed" | "pending" | "failed";
  product: string;
  gallonsMilli: number;
  priceMilli: number;
  stationId: string;
  stationName: string;
  driverId: string;
  driverName: string;
  truckId: string | null;
  cardLast4: string;
  /** Diesel exhaust fluid bought with the purchase; 0 when none. */
  defGallonsMilli: number;
}

/** What the "usual" rules read of a truck's earlier purchases. */
export type HistoryFill = Pick<Purchase, "status" | "truckId" | "product" | "gallonsMilli">;

/**
 * The history as the "usual" rules read it: truck id → product name → the gallons (thousandths) of its fills, in no
 * particular order; fills only (no failed attempt), trucks only. The mirror hands it over grouped (one row per truck
 * and product, not one per fill: a quarter's history is 240,000 fills at 1,000,000 rows); `groupHistory` builds it
 * from single fills.
 */
export type TruckHistory = ReadonlyMap<string, ReadonlyMap<string, readonly number[]>>;

/** What the rules need of a catalog station: where it is (its prices come as observations, `RuleInput.observed`). */
export interface CatalogStation {
  lat: number;
  lng: number;
}

/** The operator's thresholds (env EXCEPTIONS_*, lib/bff/platform/config-schema.ts); whole numbers so they are typed exactly. */
export interface ExceptionThresholds {
  rapidFillsCount: number;
  rapidFillsWindowMinutes: number;
  largeFillPercentile: number;
  /** 150 = 1.5 × the median. */
  largeFillMedianPercent: number;
  historyMinFills: number;
  historyDays: number;
  /** Local hours: night is [start, end) across midnight when start > end. */
  nightStartHour: number;
  nightEndHour: number;
  weekends: boolean;
  priceMarginCents: number;
  unusualProductMaxPercent: number;
  defDieselWindowMinutes: number;
  travelMph: number;
  travelMinMiles: number;
  failedWindowMinutes: number;
  /**
   * "Night or weekend" is off unless an operator turns it on (on the sandbox's fleet it flagged about half of all
   * purchases); the price rule is on (it compares with the price observed at the time, issue 25 item 3).
   */
  offHoursOn: boolean;
  catalogPriceOn: boolean;
}

export const DEFAULT_EXCEPTION_THRESHOLDS: ExceptionThresholds = {
  rapidFillsCount: 3,
  rapidFillsWindowMinutes: 180,
  largeFillPercentile: 99,
  largeFillMedianPercent: 150,
  historyMinFills: 20,
  historyDays: 180,
  nightStartHour: 22,
  nightEndHour: 5,
  weekends: true,
  priceMarginCents: 10,
  unusualProductMaxPercent: 2,
  defDieselWindowMinutes: 60,
  travelMph: 75,
  travelMinMiles: 10,
  failedWindowMinutes: 30,
  offHoursOn: false,
  catalogPriceOn: true,
};

/** A rule's finding before it is turned into the reply's hit (the instant stays a number for sorting). */
export interface RawHit {
  rule: ExceptionRuleId;
  /** Written only for the hits a reply shows: counting (the previous period, hits past the first 500) needs none. */
  sentence: () => string;
  atMs: number;
  localDate: string;
  transactionIds: string[];
  context: ExceptionContextFilter;
}

/** Whom a hit is grouped under (`group=driver|card`): the driver and card of its first purchase. */
type HitSubject = Pick<Purchase, "driverId" | "driverName" | "cardLast4">;

/** A hit with its subject, as judgePeriod returns it. */
export type SubjectHit = RawHit & { subject: HitSubject };

/** What one rule found over one period, and what it could not judge (a sentence, or null). */
export interface RuleOutcome {
  hits: RawHit[];
  notJudged: string | null;
}

/** The rules' input: the period's purchases (oldest first) and the history before it (for the "usual" rules). */
export interface RuleInput {
  purchases: readonly Purchase[];
  history: TruckHistory;
  /** By station id; null when the catalog could not be read (the catalog rules do not run then). */
  catalog: ReadonlyMap<string, CatalogStation> | null;
  /**
   * The customer prices the catalog walks observed, by station, and how far from a purchase an observation may lie
   * (PRICE_WINDOW_HOURS); null when none could be read (the price rule does not run then). Plain data.
   */
  observed: { prices: ObservedPrices; windowMs: number } | null;
  thresholds: ExceptionThresholds;
}
