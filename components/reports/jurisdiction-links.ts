import type { Route } from "next";

import type { JurisdictionReply } from "@/lib/model/insight-jurisdictions";
import type { LocalDateRange } from "@/lib/model/insights";
import { NO_MIRROR_FILTERS, writeTransactionFilters } from "@/lib/queries/transaction-filters";

/**
 * Links from the jurisdiction report to the transactions behind a figure: the same purchase-local dates
 * (`dates=local`), state, product and `status=completed`, written by the list's one filter writer, so the list's
 * totals bar ties out with the figure.
 */
export function transactionsHref(
  range: LocalDateRange,
  filters: { state?: string | null; product?: string | null; status?: "completed" | "pending" | "failed" },
): Route {
  const query = writeTransactionFilters(new URLSearchParams(), {
    from: range.from,
    to: range.to,
    tz: "UTC",
    status: filters.status ?? "completed",
    search: "",
    // The dates are the purchases' own local dates (the report's basis), not days of a zone.
    mirror: { ...NO_MIRROR_FILTERS, state: filters.state ?? null, product: filters.product ?? null, dates: "local" },
  });
  return `/transactions?${query.toString()}` as Route;
}

/**
 * The dates a figure's link lists (review 16 #3): the days the figures cover exactly (`coverage.covered`), not the
 * requested range, which while the copy loads reaches further back than the figures do. Null: nothing covered yet.
 */
export const linkRange = (reply: Pick<JurisdictionReply, "coverage">): LocalDateRange | null => reply.coverage.covered;

/** The export's URL for the chosen range (`txt`: the About text, what the CSV holds no room for). */
export function exportHref(format: "csv" | "xlsx" | "txt", query: Record<string, string>): string {
  return `/api/reports/jurisdictions/export?${new URLSearchParams({ ...query, format }).toString()}`;
}
