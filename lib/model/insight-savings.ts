import type { InsightCoverage, LocalDateRange } from "./insights";

/**
 * `GET /api/savings` (issue 16 item 4, issue 25 item 3): what the fleet paid against the cheapest customer price
 * observed, within a window around each fill's instant, at the other stations within a radius of the one it filled
 * at, and against the state's median observed price; and whether each fill was charged its station's observed customer
 * price. Zod-free: the BFF and the browser share it.
 * Amounts are exact decimal strings (dollars, 2 digits: the exact sum of per-gallon differences × gallons, rounded
 * half up once); prices 3 digits.
 */

/** Fills and their gallons (exact, 3 digits). */
export interface FillCount {
  fills: number;
  gallons: string;
}

export interface SavingsFigures {
  /** Every completed fill of the period: the M of "over N of M fills". */
  considered: number;
  /**
   * The fills compared (the N): completed diesel fills at catalog stations with another station's price observed
   * within the window around the fill's instant.
   */
  fills: number;
  gallons: string;
  /** "Could have saved $X on N fills": Σ max(0, paid − cheapest nearby) × gallons, and the fills with a saving. */
  couldHaveSaved: string;
  fillsWithSaving: number;
  /** Σ max(0, paid − the state's median) × gallons, and the fills above their state's median. */
  aboveStateMedian: string;
  fillsAboveStateMedian: number;
  /**
   * Diesel fills at catalog stations not compared: no other station within the radius has a price observed within
   * the window of the fill (`noObservation`), or no other station lies within the radius at all (`noOtherStation`).
   */
  notCompared: { noObservation: FillCount; noOtherStation: FillCount };
  /** Completed fills at stations the catalog does not list: not compared, counted apart. */
  unknownStation: FillCount;
  /** Completed fills of other products (the catalog prices diesel only): not compared. */
  otherProduct: FillCount;
  /**
   * Was the customer price applied? Diesel fills at catalog stations whose own price was observed within the window
   * (`checked`; the others `notChecked`), how many paid more per gallon than it, and Σ (paid − observed) × gallons.
   */
  priceApplied: { checked: number; notChecked: number; fillsAbove: number; paidAbove: string };
}

export interface MissedSavingStation {
  id: string;
  name: string;
  city: string;
  state: string;
}

/** One fill where another station within the radius had a lower price observed around the fill's instant. */
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
  /** `apartMinutes`: 0 when the price was observed to hold at the fill's instant, else how far its observation lay. */
  cheaper: MissedSavingStation & { price: string; miles: string; apartMinutes: number };
  saving: string;
}

export interface SavingsScope {
  driverId: string | null;
  stationId: string | null;
}

export interface SavingsReply {
  range: LocalDateRange;
  scope: SavingsScope;
  radiusMiles: number;
  /** A fill is compared with prices observed at most this many hours from its instant (PRICE_WINDOW_HOURS). */
  windowHours: number;
  coverage: InsightCoverage;
  current: SavingsFigures;
  /** The previous period of equal length (or the quarter before), and what the mirror covers of it. */
  previous: { range: LocalDateRange; coverage: InsightCoverage; figures: SavingsFigures };
  /** The largest missed savings of the current period, largest first (at most 10). */
  top: MissedSaving[];
  /**
   * Null when every completed fill is compared with the catalog as recorded. Else the comparisons are still being
   * computed in the background (after a sync, a catalog walk, the first use of the stored comparisons): `pending` of
   * the customer's `total` completed fills are not compared yet (or were compared before their last change), so the
   * figures are those of the fills compared so far and will change.
   */
  comparing: { pending: number; total: number } | null;
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
