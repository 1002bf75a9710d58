import { averagePricePerGallon, fromMinorUnits, type SummaryTotals } from "@/lib/model";

import { groupSums, type SumSource } from "./rollup-reads";
import type { InstantRange, MirrorStore } from "./store";

/**
 * A period's totals alone (the summary's `previous`): completed and pending (failed is not spend), the rule the
 * summary's totals follow. From the UTC rollups' product sums (whole days and 4-, 16-, 128-day periods; the rows of
 * partial days at the ends: ./rollup-reads.ts), or every sum from the rows (`source: "rows"`, the test's reference).
 */
export async function periodTotals(
  store: MirrorStore,
  customerId: string,
  range: InstantRange,
  source: SumSource = "rollups",
): Promise<SummaryTotals> {
  const products = await groupSums(store, customerId, "product", range, source);
  const transactions = products.reduce((n, p) => n + p.transactions, 0);
  const gallons = products.reduce((g, p) => g + p.gallons, 0n);
  const amount = products.reduce((a, p) => a + p.amount, 0n);
  return {
    transactions,
    gallons: fromMinorUnits(gallons, 3),
    amount: fromMinorUnits(amount, 2),
    averagePricePerGallon: averagePricePerGallon(amount, gallons),
  };
}
