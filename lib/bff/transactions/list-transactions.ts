import "server-only";

import type { TransactionListReply } from "@/lib/model";

import { sessionOperation } from "../http/operation";
import { chooseSource } from "./choose-source";
import { instantRangeOf, mirrorOnlyAsked } from "./mirror-filter";
import { dateCoverageOf, TransactionListQuery } from "./params";
import { LIST_CACHE } from "./upstream-source";

/**
 * GET /api/transactions — one page; query: page, limit (1–200), from, to (days; in tz when given, else UTC), tz,
 * status, search (names, card last four, or a reference), and the mirror-only driver, card, truck, station, state,
 * product, amountMin/Max, gallonsMin/Max, sort, dir (./mirror-params.ts). From the customer's mirror when it covers
 * the range, else from the upstream (a 409 for mirror-only parameters then); `origin` says which.
 */
export const listTransactions = sessionOperation({
  route: "GET /api/transactions",
  input: { query: TransactionListQuery },
  csrf: "same-site",
  reads: "transactions",
  // A page of rows by index (or the upstream's page, which the request budget queues): cheap, and a page asks for it
  // beside its reports; single flight shares one load between identical requests of a session.
  readSlot: "exempt",
  priority: "interactive",
  cache: LIST_CACHE,
  run: async (ctx, q): Promise<TransactionListReply> => {
    const paging = { page: q.page ?? 1, limit: q.limit ?? 50 };
    const source = await chooseSource(ctx, { fromMs: instantRangeOf(q).fromMs, mirrorOnly: mirrorOnlyAsked(q) });
    return { ...(await source.list(q, paging)), dateFilter: dateCoverageOf(q), origin: source.origin };
  },
});
