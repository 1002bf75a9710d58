import "server-only";

import type { ListTotals } from "@/lib/model";

import { getConfig } from "../config";
import { listTotals } from "../list-totals";
import { cached, sessionOperation } from "../operation";
import { TransactionTotalsQuery, upstreamFilterOf } from "../params";

/**
 * GET /api/transactions/totals — the list's filtered set (from, to, tz, status, search): count, gallons and amount
 * (walks ≤ 5,000 rows; cached).
 */
export const transactionTotals = sessionOperation({
  route: "GET /api/transactions/totals",
  input: { query: TransactionTotalsQuery },
  csrf: "same-site",
  priority: "bulk",
  cache: { name: "totals", ttlMs: () => getConfig().cacheTtlMs.summary },
  run: (ctx, q): Promise<ListTotals> => {
    // The zone's days as instants; a dates-only upstream is walked over the covering days and trimmed (list-totals).
    const filter = upstreamFilterOf(q);
    return cached(ctx, transactionTotals.cache, filter, (signal) =>
      listTotals(ctx.session.credentials, filter, signal),
    );
  },
});
