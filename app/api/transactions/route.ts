import { withSession, parseQuery } from "@/lib/bff/handler";
import { cache } from "@/lib/bff/cache";
import { getConfig } from "@/lib/bff/config";
import { dateCoverageOf, TransactionListQuery, upstreamFilterOf } from "@/lib/bff/params";
import { findByReferenceCached, isReferenceLike, withoutSearch } from "@/lib/bff/reference-search";
import { isInsideInstants, listTransactionsExactly } from "@/lib/bff/zoned-transactions";
import type { DateFilterCoverage, Page, Transaction } from "@/lib/model";

type ListReply = Page<Transaction> & { dateFilter: DateFilterCoverage | null };

// GET /api/transactions — one page; query: page, limit (1–200), from, to (days; in tz when given, else UTC), tz, status, search (names, card last four, or a reference)
export const GET = withSession("GET /api/transactions", async ({ request, session, key }) => {
  const q = parseQuery(request, TransactionListQuery);
  const query = { page: q.page ?? 1, limit: q.limit ?? 50, ...upstreamFilterOf(q) };
  const dateFilter = dateCoverageOf(q);
  // The upstream's search does not match references: a term shaped like one is looked up by reference first (a
  // dates-only upstream answers the covering UTC days, so the matches are kept to the zone's instants).
  if (query.search !== undefined && isReferenceLike(query.search)) {
    const { matches } = await findByReferenceCached(
      session.credentials,
      withoutSearch(query),
      query.search,
      request.signal,
    );
    const inside = matches.filter(isInsideInstants(query));
    if (inside.length > 0) {
      const start = (query.page - 1) * query.limit;
      const reply: ListReply = {
        page: query.page,
        limit: query.limit,
        total: inside.length,
        pages: Math.ceil(inside.length / query.limit),
        items: inside.slice(start, start + query.limit),
        dateFilter,
      };
      return Response.json(reply);
    }
  }
  const reply = await cache().get<ListReply>(
    `${key}:transactions:${JSON.stringify(query)}`,
    getConfig().cacheTtlMs.transactions,
    // A zone's days exactly in both upstream shapes: instants as datetimes, or the covering UTC days trimmed.
    async (signal) => ({ ...(await listTransactionsExactly(session.credentials, query, { signal })), dateFilter }),
    request.signal,
  );
  return Response.json(reply);
});
