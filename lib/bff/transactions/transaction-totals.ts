import "server-only";

import type { ListTotals } from "@/lib/model";

import { cached, sessionOperation } from "../http/operation";
import { getConfig } from "../platform/config";
import { listTotals } from "./list-totals";
import { mirrorCovering, mirrorNeeded } from "./mirror-coverage";
import { instantRangeOf, mirrorOnlyAsked } from "./mirror-filter";
import { mirrorListTotals } from "./mirror-totals";
import { TransactionTotalsQuery, upstreamFilterOf } from "./params";

/**
 * GET /api/transactions/totals — the list's filtered set (from, to, tz, status, search, and the mirror-only filters):
 * count, gallons and amount. From the mirror when it covers the range (any size, not cached, like the list), else an
 * upstream walk of ≤ 5,000 rows (cached); mirror-only filters without a covering mirror are a 409, as in the list.
 */
export const transactionTotals = sessionOperation({
  route: "GET /api/transactions/totals",
  input: { query: TransactionTotalsQuery },
  csrf: "same-site",
  reads: "transactions",
  priority: "bulk",
  cache: { name: "totals", ttlMs: () => getConfig().cacheTtlMs.summary },
  run: async (ctx, q): Promise<ListTotals> => {
    const serving = await mirrorCovering(ctx, instantRangeOf(q).fromMs);
    if (serving.mirror !== null) return mirrorListTotals(serving.mirror, q);
    // The sort does not change a sum: only the filters need the mirror.
    const asked = mirrorOnlyAsked({ ...q, sort: undefined, dir: undefined });
    if (asked.length > 0) throw mirrorNeeded(serving, asked);
    // The zone's days as instants; a dates-only upstream is walked over the covering days and trimmed (list-totals).
    const filter = upstreamFilterOf(q);
    return cached(ctx, transactionTotals.cache, filter, (signal) =>
      listTotals(ctx.session.credentials, filter, signal),
    );
  },
});
