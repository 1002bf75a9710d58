import { withSession, parseQuery } from "@/lib/bff/handler";
import { cache } from "@/lib/bff/cache";
import { getConfig } from "@/lib/bff/config";
import { dateCoverageOf, TransactionListQuery, upstreamFilterOf } from "@/lib/bff/params";
import { fleetApi } from "@/lib/bff/upstream";
import type { DateFilterCoverage, Page, Transaction } from "@/lib/model";

// GET /api/transactions — one page; query: page, limit (1–200), from, to (days; in tz when given, else UTC), tz, status, search
export const GET = withSession("GET /api/transactions", async ({ request, session, key }) => {
  const q = parseQuery(request, TransactionListQuery);
  const query = { page: q.page ?? 1, limit: q.limit ?? 50, ...upstreamFilterOf(q) };
  const reply = await cache().get<Page<Transaction> & { dateFilter: DateFilterCoverage | null }>(`${key}:transactions:${JSON.stringify(query)}`, getConfig().cacheTtlMs.transactions, async () => {
    const page = await fleetApi().listTransactions(session.credentials, query, { signal: request.signal });
    // After the call: the date form it used (negotiated on a 400), so the page can say whether days are exact.
    return { ...page, dateFilter: dateCoverageOf(q, fleetApi().transactionDateStyle()) };
  });
  return Response.json(reply);
});
