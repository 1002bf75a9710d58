import { withSession, parseQuery } from "@/lib/bff/handler";
import { cache } from "@/lib/bff/cache";
import { getConfig } from "@/lib/bff/config";
import { TransactionListQuery } from "@/lib/bff/params";
import { findByReferenceCached, isReferenceLike, withoutSearch } from "@/lib/bff/reference-search";
import { fleetApi } from "@/lib/bff/upstream";
import type { Page, Transaction } from "@/lib/model";

// GET /api/transactions — one page; query: page, limit (1–200), from, to (UTC dates), status, search (names, card last four, or a reference)
export const GET = withSession("GET /api/transactions", async ({ request, session, key }) => {
  const q = parseQuery(request, TransactionListQuery);
  const query = { page: q.page ?? 1, limit: q.limit ?? 50, ...(q.from ? { from: q.from } : {}), ...(q.to ? { to: q.to } : {}), ...(q.status ? { status: q.status } : {}), ...(q.search ? { search: q.search } : {}) };
  // The upstream's search does not match references: a term shaped like one is looked up by reference first.
  if (query.search !== undefined && isReferenceLike(query.search)) {
    const { matches } = await findByReferenceCached(session.credentials, withoutSearch(query), query.search, request.signal);
    if (matches.length > 0) {
      const start = (query.page - 1) * query.limit;
      const page: Page<Transaction> = { page: query.page, limit: query.limit, total: matches.length, pages: Math.ceil(matches.length / query.limit), items: matches.slice(start, start + query.limit) };
      return Response.json(page);
    }
  }
  const page = await cache().get<Page<Transaction>>(
    `${key}:transactions:${JSON.stringify(query)}`,
    getConfig().cacheTtlMs.transactions,
    (signal) => fleetApi().listTransactions(session.credentials, query, { signal }),
    request.signal,
  );
  return Response.json(page);
});
