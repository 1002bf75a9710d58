import "server-only";

import type { ListTotals } from "@/lib/model";

import { sessionOperation } from "../http/operation";
import { chooseSource } from "./choose-source";
import { instantRangeOf, mirrorOnlyAsked } from "./mirror-filter";
import { TransactionTotalsQuery } from "./params";
import { TOTALS_CACHE } from "./upstream-source";

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
  cache: TOTALS_CACHE,
  run: async (ctx, q): Promise<ListTotals> => {
    // The sort does not change a sum: only the filters need the mirror.
    const mirrorOnly = mirrorOnlyAsked({ ...q, sort: undefined, dir: undefined });
    const source = await chooseSource(ctx, { fromMs: instantRangeOf(q).fromMs, mirrorOnly });
    return source.totals(q);
  },
});
