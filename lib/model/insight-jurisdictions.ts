import type { InsightCoverage, InsightPeriods, LocalDateRange } from "./insights";
import type { MetricId, Settling } from "./metrics";
import type { FuelClass } from "./product-classes";

/**
 * `GET /api/reports/jurisdictions` (issue 16 item 1): fuel bought per station state × fuel class over a range of
 * purchase-local dates, completed purchases only. Decimals are exact strings (lib/model/decimal-math); DEF is never in
 * the fuel gallons: its own columns, from the purchases' DEF part and from purchases whose product is DEF itself.
 */

/** One cell group's figures. `averagePrice`: fuel amount / fuel gallons, 3 decimals; null without fuel gallons. */
export interface JurisdictionFigures {
  purchases: number;
  gallons: string;
  amount: string;
  averagePrice: string | null;
  defGallons: string;
  defAmount: string;
}

export interface JurisdictionRow extends JurisdictionFigures {
  /** USPS code; "" when the purchase's station has no state (see `quality.noState`). */
  state: string;
  fuel: FuelClass;
  /** The product names behind the row (a link filters by one product name; several need one link each). */
  products: string[];
  /** The same state × fuel in the previous period; null when it had none (or the mirror does not cover it). */
  previous: JurisdictionFigures | null;
}

/** Purchases outside the report's figures, counted apart so nothing disappears silently. */
export interface JurisdictionAside {
  purchases: number;
  gallons: string;
  amount: string;
}

export interface JurisdictionReport {
  rows: JurisdictionRow[];
  totals: JurisdictionFigures;
  /** Purchases still pending as of the data's time (not in the figures: their amount may still change). */
  pending: JurisdictionAside;
  /** Failed purchases: no fuel was bought; excluded. */
  failed: { purchases: number };
  quality: {
    /** Completed purchases whose station has no state (in the figures under state ""). */
    noState: number;
    /** Completed purchases whose product name the classifier does not recognise (counted as "other"). */
    unknownProducts: { product: string; purchases: number }[];
    /** Purchases in the range still pending at its end (as of the data's time). */
    pendingAtEnd: number;
  };
  /**
   * Completed purchases whose product is DEF itself, by their own gallons and amount: in the diesel rows' DEF columns
   * (never fuel gallons), though their purchases count in `purchases`.
   */
  defOnly: JurisdictionAside;
  /**
   * Every completed purchase as the transactions list totals them (status=completed, same dates): fuel plus the
   * DEF-only purchases' own gallons and amount. The "all completed purchases" link's figures: it ties out.
   */
  completed: JurisdictionAside;
}

export interface JurisdictionReply {
  periods: InsightPeriods;
  /** What the mirror covers of the current range: the figures are exactly that part (never a silent partial). */
  coverage: InsightCoverage;
  previousCoverage: InsightCoverage;
  report: JurisdictionReport;
  /** The previous period's totals (its rows are on each row's `previous`); null when the mirror has none of it. */
  previous: { range: LocalDateRange; totals: JurisdictionFigures } | null;
  /** The report's metric (lib/model/metrics "tax.completed.local-date"): its caption is the page's. */
  metric: MetricId;
  /**
   * Pending purchases of the covered current period: the completed-only figures are not final until they complete,
   * so no change against the previous period is claimed meanwhile ("3 days still settling").
   */
  settling: Settling;
}
