/**
 * What `GET /api/transactions/totals` answers: the filtered list's totals, shown above the transactions table.
 * Zod-free (types and one constant), so the browser may import it.
 */

/**
 * Gallons and amount are added up only for a filtered set of at most this many transactions: reading them costs one
 * upstream request per 200 (25 here, under half of a 60-a-minute budget); beyond it the page asks for a narrower filter.
 */
export const MAX_TOTALS_ROWS = 5_000;

export type ListTotals =
  | {
      state: "summed";
      /** Every transaction of the filter, whatever its status. */
      transactions: number;
      /** Failed ones among them: not charged, so not in gallons and amount. */
      failed: number;
      /** Completed and pending transactions' gallons (3 decimals) and amount (2 decimals), exact. */
      gallons: string;
      amount: string;
    }
  | {
      state: "too_many";
      transactions: number;
      maxRows: number;
    };
