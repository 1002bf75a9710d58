import type { LocalDateRange } from "@/lib/model/insights";
import type { SavingsScope } from "@/lib/queries/savings";
import { NO_MIRROR_FILTERS, writeTransactionFilters } from "@/lib/queries/transaction-filters";

/**
 * The transactions behind the savings figures: the completed ones of the range's purchase-local dates (`dates=local`),
 * of the driver or station when the panel shows one — written by the list's own filter writer.
 */
export function savingsTransactionsLink(range: LocalDateRange, scope: SavingsScope): string {
  const query = writeTransactionFilters(new URLSearchParams(), {
    from: range.from,
    to: range.to,
    tz: "UTC",
    status: "completed",
    search: "",
    mirror: {
      ...NO_MIRROR_FILTERS,
      dates: "local",
      driver: "driver" in scope ? scope.driver : null,
      station: "station" in scope ? scope.station : null,
    },
  });
  return `/transactions?${query.toString()}`;
}
