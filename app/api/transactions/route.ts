import { withSession, parseQuery } from "@/lib/bff/handler";
import { cache } from "@/lib/bff/cache";
import { getConfig } from "@/lib/bff/config";
import { dateCoverageOf, TransactionListQuery, upstreamFilterOf } from "@/lib/bff/params";
import { listTransactionsExactly } from "@/lib/bff/zoned-transactions";
import type { DateFilterCoverage, Page, Transaction } from "@/lib/model";

// GET /api/transactions — one page; query: page, limit (1–200), from, to (days; in tz when given, else UTC), tz, status, search
export const GET = withSession("GET /api/transactions", async ({ request, session, key }) => {
  const q = parseQuery(request, TransactionListQuery);
  const query = { page: q.page ?? 1, limit: q.limit ?? 50, ...upstreamFilterOf(q) };
  const reply = await cache().get<Page<Transaction> & { dateFilter: DateFilterCoverage | null }>(`${key}:transactions:${JSON.stringify(query)}`, getConfig().cacheTtlMs.transactions, async () => {
    // A zone's days exactly in both upstream shapes: instants as datetimes, or the covering UTC days trimmed.
    const page = await listTransactionsExactly(session.credentials, query, { signal: request.signal });
    return { ...page, dateFilter: dateCoverageOf(q) };
  });
  return Response.json(reply);
});
