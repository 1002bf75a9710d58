import type { LocalDateRange } from "@/lib/model";
import type { SavingsScope } from "@/lib/queries/savings";

/**
 * The transactions behind the savings figures: the completed ones of the range's purchase-local dates (`dates=local`),
 * of the driver or station when the panel shows one.
 */
export function savingsTransactionsLink(range: LocalDateRange, scope: SavingsScope): string {
  const query = new URLSearchParams({ from: range.from, to: range.to, dates: "local", status: "completed" });
  if ("driver" in scope) query.set("driver", scope.driver);
  if ("station" in scope) query.set("station", scope.station);
  return `/transactions?${query.toString()}`;
}
