/**
 * What `GET /api/transactions/summary` answers: one definition for the BFF that builds it (lib/bff/transactions/summary.ts) and
 * the pages that read it. No zod, so the browser pays nothing for importing its types. Decimals are exact strings:
 * gallons to 3 places, amounts to 2.
 */
import { fromMinorUnits } from "./decimal-math";

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

/** A running total of one driver, station or product while a summary is built (exact minor units). */
export interface RankAccumulator {
  id: string;
  name: string;
  detail: string | null;
  transactions: number;
  /** Thousandths of a gallon. */
  gallons: bigint;
  /** Cents. */
  amount: bigint;
}

/** The top `n` by amount (ties by name), as the summary's lists show them: one rule for the walk and the mirror. */
export function rankByAmount(accs: Iterable<RankAccumulator>, n: number): RankedItem[] {
  return [...accs]
    .sort((x, y) => (y.amount > x.amount ? 1 : y.amount < x.amount ? -1 : x.name.localeCompare(y.name)))
    .slice(0, n)
    .map((x) => ({
      id: x.id,
      name: x.name,
      detail: x.detail,
      transactions: x.transactions,
      gallons: fromMinorUnits(x.gallons, 3),
      amount: fromMinorUnits(x.amount, 2),
    }));
}
