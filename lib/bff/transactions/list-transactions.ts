import "server-only";

import type { TransactionListReply } from "@/lib/model";

import { cached, type OperationContext, sessionOperation } from "../http/operation";
import { getConfig } from "../platform/config";
import { mirrorCovering, mirrorNeeded } from "./mirror-coverage";
import { instantRangeOf, mirrorOnlyAsked } from "./mirror-filter";
import { mirrorListPage } from "./mirror-list";
import { dateCoverageOf, TransactionListQuery, upstreamFilterOf } from "./params";
import { findByReferenceCached, isReferenceLike, withoutSearch } from "./reference-search";
import { isInsideInstants, listTransactionsExactly } from "./zoned-transactions";

type ListQuery = ReturnType<typeof upstreamFilterOf> & { page: number; limit: number };

/**
 * GET /api/transactions — one page; query: page, limit (1–200), from, to (days; in tz when given, else UTC), tz,
 * status, search (names, card last four, or a reference), and the mirror-only driver, card, truck, station, state,
 * product, amountMin/Max, gallonsMin/Max, sort, dir (lib/bff/transactions). From the customer's mirror when it covers
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
  // Shared with the other instances (Redis): a page of rows saves them the same upstream call.
  cache: { name: "transactions", ttlMs: () => getConfig().cacheTtlMs.transactions, shared: true },
  run: async (ctx, q): Promise<TransactionListReply> => {
    const paging = { page: q.page ?? 1, limit: q.limit ?? 50 };
    const dateFilter = dateCoverageOf(q);
    // The mirror answers when it covers the range (exact instants of the zone's days, the mirror-only filters, any
    // sort); not cached: it answers in milliseconds, and a cached page would hide the next head sync.
    const { fromMs } = instantRangeOf(q);
    const serving = await mirrorCovering(ctx, fromMs);
    if (serving.mirror !== null)
      return { ...(await mirrorListPage(serving.mirror, q, paging)), dateFilter, origin: serving.origin };
    const asked = mirrorOnlyAsked(q);
    if (asked.length > 0) throw mirrorNeeded(serving, asked);
    const query: ListQuery = { ...paging, ...upstreamFilterOf(q) };
    const byReference = await pageByReference(ctx, query);
    if (byReference !== null) return { ...byReference, dateFilter, origin: serving.origin };
    const page = await cached(ctx, listTransactions.cache, query, (signal) =>
      // A zone's days exactly in both upstream shapes: instants as datetimes, or the covering UTC days trimmed.
      listTransactionsExactly(ctx.session.credentials, query, { signal, priority: ctx.priority }),
    );
    return { ...page, dateFilter, origin: serving.origin };
  },
});

/**
 * The upstream's search does not match references: a term shaped like one is looked up by reference first (a
 * dates-only upstream answers the covering UTC days, so the matches are kept to the zone's instants). Null when the
 * term is no reference or nothing matched (the upstream's own search answers then).
 */
async function pageByReference(
  ctx: OperationContext,
  query: ListQuery,
): Promise<Omit<TransactionListReply, "dateFilter" | "origin"> | null> {
  if (query.search === undefined || !isReferenceLike(query.search)) return null;
  const { matches } = await findByReferenceCached(
    ctx.session.credentials,
    withoutSearch(query),
    query.search,
    ctx.signal,
  );
  const inside = matches.filter(isInsideInstants(query));
  if (inside.length === 0) return null;
  const start = (query.page - 1) * query.limit;
  return {
    page: query.page,
    limit: query.limit,
    total: inside.length,
    pages: Math.ceil(inside.length / query.limit),
    items: inside.slice(start, start + query.limit),
  };
}
