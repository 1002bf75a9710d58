/**
 * What `GET /api/transactions/summary` answers: one definition for the BFF that builds it (lib/bff/summary.ts) and
 * the pages that read it. Types only (no zod), so the browser pays nothing for importing them. Decimals are exact
 * strings: gallons to 3 places, amounts to 2.
 */

export interface SummaryTotals {
  transactions: number;
  gallons: string;
  amount: string;
  /** Null when no fuel was bought in the range. */
  averagePricePerGallon: string | null;
}

export interface SummaryDay {
  /** A UTC calendar day, YYYY-MM-DD. */
  date: string;
  transactions: number;
  gallons: string;
  amount: string;
}

export interface RankedItem {
  id: string;
  name: string;
  /** A driver's truck, a station's "City, ST"; null when there is none. */
  detail: string | null;
  transactions: number;
  gallons: string;
  amount: string;
}

export interface TransactionSummary {
  from: string;
  to: string;
  /** Completed and pending transactions (failed ones are not spend), the same rule as the upstream's totals_30d. */
  totals: SummaryTotals;
  /** Every day of the range, oldest first, zeros included. */
  daily: SummaryDay[];
  topDrivers: RankedItem[];
  topStations: RankedItem[];
  products: RankedItem[];
  byStatus: Record<string, number>;
}
