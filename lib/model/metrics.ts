/**
 * The metrics layer (issue 25 item 1): every figure the pages, replies, exports and reports show is defined here once
 * — which statuses it counts, which amount and gallons, which date basis — with a short name and the sentence the UI
 * shows. The SQL and JavaScript that compute a figure take their status set from here (`statusesOf`, `countsStatus`),
 * and a comparison of two periods is said by one rule (lib/format/metric-sentences `compareSpend`), the same definition
 * on both sides, with the sentences (lib/format/metric-sentences) built from these definitions.
 *
 * Zod-free and framework-free: the browser imports it (captions), so do the BFF and the mirror (status sets).
 */
/** The statuses a purchase can have (lib/model/transaction's TRANSACTION_STATUSES, repeated here without zod). */
type Status = "completed" | "pending" | "failed";

/** Which purchases a figure counts. */
export const STATUS_SETS = {
  /** Every purchase, whatever its status (a list's count). */
  purchases: ["completed", "pending", "failed"],
  /** What the provider charges: completed and pending (failed ones are not spend), the upstream's totals_30d rule. */
  charged: ["completed", "pending"],
  /** Completed only: final amounts (tax reports, where a pending amount may still change). */
  completed: ["completed"],
  pending: ["pending"],
  failed: ["failed"],
} as const satisfies Record<string, readonly Status[]>;
export type StatusSet = keyof typeof STATUS_SETS;

/**
 * Which day a purchase belongs to. `utc-day`: its UTC calendar day. `local-date`: its own local date (the station's
 * offset). `rolling-720h`: no day at all, the 30 × 24 hours up to now.
 */
export type DateBasis = "utc-day" | "local-date" | "rolling-720h";

export const DATE_BASIS_WORDS: Record<DateBasis, string> = {
  "utc-day": "by UTC calendar day",
  "local-date": "by each purchase's local date",
  "rolling-720h": "over the 30 × 24 hours up to now",
};

export interface MetricDefinition {
  id: MetricId;
  statuses: StatusSet;
  /** The purchase's amount and gallons as the provider reports them (the only amount and gallons there are). */
  amount: "amount";
  gallons: "gallons";
  basis: DateBasis;
  /** Short name: a heading or a column. */
  name: string;
  /** The sentence the UI shows under the figure. */
  caption: string;
}

const define = <const T extends Record<string, Omit<MetricDefinition, "id" | "amount" | "gallons">>>(
  defs: T,
): { [K in keyof T]: T[K] & { id: K; amount: "amount"; gallons: "gallons" } } =>
  Object.fromEntries(
    Object.entries(defs).map(([id, d]) => [id, { ...d, id, amount: "amount", gallons: "gallons" }]),
  ) as { [K in keyof T]: T[K] & { id: K; amount: "amount"; gallons: "gallons" } };

export const METRICS = define({
  /** The overview's chart and its totals line (the provider's summary days). */
  "spend.utc-day": {
    statuses: "charged",
    basis: "utc-day",
    name: "Spend",
    caption: "Completed and pending purchases (failed ones are not charged), by UTC calendar day.",
  },
  /** Drill-downs (/drivers, /trucks, /cards, a driver's page), the overview's top drivers and its period change. */
  "spend.local-date": {
    statuses: "charged",
    basis: "local-date",
    name: "Spend",
    caption: "Completed and pending purchases (failed ones are not charged), by each purchase's local date.",
  },
  /** The overview's "Last 30 days (rolling)" card (the provider's totals_30d). */
  "spend.rolling-30d": {
    statuses: "charged",
    basis: "rolling-720h",
    name: "Spend, last 30 days (rolling)",
    caption: "Completed and pending purchases (failed ones are not charged) over the 30 × 24 hours up to now.",
  },
  /** The jurisdiction (fuel tax) report: final amounts only. */
  "tax.completed.local-date": {
    statuses: "completed",
    basis: "local-date",
    name: "Fuel bought (completed)",
    caption:
      "Completed purchases only (pending ones may still change; failed ones bought nothing), by each purchase's local date.",
  },
});
export type MetricId = "spend.utc-day" | "spend.local-date" | "spend.rolling-30d" | "tax.completed.local-date";

/** The statuses a status set counts (what the SQL's `status in (…)` and the walk's test read). */
export const statusesOf = (set: StatusSet): readonly Status[] => STATUS_SETS[set];

/** Whether a purchase of this status counts in the set. */
export const countsStatus = (set: StatusSet, status: string): boolean =>
  (STATUS_SETS[set] as readonly string[]).includes(status);

/** Purchases of the current period that are still pending: their amounts may change, so the period is not final. */
export interface Settling {
  /** Pending purchases in the period. */
  purchases: number;
  /** The distinct dates (of the metric's basis) that hold them. */
  days: number;
}

export const NOT_SETTLING: Settling = { purchases: 0, days: 0 };

/** One side of a comparison: a period (dates, both ends included) and its amount under the metric. */
export interface PeriodAmount {
  from: string;
  to: string;
  amount: string;
}

/**
 * What a page shows when it compares a period with the one before, for one metric on both sides. Sent in replies so
 * every page says the same verdict with the same words.
 */
export interface SpendComparison {
  metric: MetricId;
  current: PeriodAmount;
  previous: PeriodAmount;
  settling: Settling;
}
