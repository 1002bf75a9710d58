import type { InsightCoverage, LocalDateRange } from "./insights";

/**
 * `GET /api/savings` (issue 16 item 4): what the fleet paid against the cheapest catalog price within a radius of
 * each station it filled at, and against the state's median catalog price. Zod-free: the BFF and the browser share it.
 * Amounts are exact decimal strings (dollars, 2 digits: the exact sum of per-gallon differences × gallons, rounded
 * half up once); prices 3 digits.
 */

/** Which prices a fill was compared against. */
export type PriceBasis = "history" | "today";

export interface SavingsFigures {
  /** Completed diesel fills at stations the catalog knows: the fills compared. */
  fills: number;
  gallons: string;
  /** "Could have saved $X on N fills": Σ max(0, paid − cheapest nearby) × gallons, and the fills with a saving. */
  couldHaveSaved: string;
  fillsWithSaving: number;
  /** Σ max(0, paid − the state's median) × gallons, and the fills above their state's median. */
  aboveStateMedian: string;
  fillsAboveStateMedian: number;
  /**
   * How many compared fills used the prices in force on their purchase day (the recorded price history) and how many
   * today's catalog (history did not reach back to that day for every station compared).
   */
  basis: Record<PriceBasis, number>;
  /** Completed fills at stations the catalog does not list: not compared, counted apart. */
  unknownStation: { fills: number; gallons: string };
  /** Completed fills of other products (the catalog prices diesel only): not compared. */
  otherProduct: { fills: number; gallons: string };
}

export interface MissedSavingStation {
  id: string;
  name: string;
  city: string;
  state: string;
}

/** One fill where a cheaper station was within the radius. */
export interface MissedSaving {
  transactionId: string;
  reference: string;
  /** The instant (UTC ISO) and the purchase-local date. */
  at: string;
  localDate: string;
  driver: { id: string; name: string };
  station: MissedSavingStation;
  gallons: string;
  paid: string;
  cheaper: MissedSavingStation & { price: string; miles: string };
  saving: string;
  basis: PriceBasis;
}

export interface SavingsScope {
  driverId: string | null;
  stationId: string | null;
}

export interface SavingsReply {
  range: LocalDateRange;
  scope: SavingsScope;
  radiusMiles: number;
  coverage: InsightCoverage;
  current: SavingsFigures;
  /** The previous period of equal length (or the quarter before), and what the mirror covers of it. */
  previous: { range: LocalDateRange; coverage: InsightCoverage; figures: SavingsFigures };
  /** The largest missed savings of the current period, largest first (at most 10). */
  top: MissedSaving[];
  catalog: {
    /** "loading": no catalog walk recorded yet (one runs in the background): the figures are zeros, not savings. */
    state: "ready" | "loading";
    stations: number;
    /** When the latest catalog walk was recorded; null when none yet. */
    lastWalkAt: string | null;
    /** Since when recorded price history exists (the oldest record's start); null without history. */
    historySince: string | null;
  };
}
