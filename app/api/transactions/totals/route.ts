import { withSession, parseQuery } from "@/lib/bff/handler";
import { cache } from "@/lib/bff/cache";
import { getConfig } from "@/lib/bff/config";
import { listTotals } from "@/lib/bff/list-totals";
import { TransactionTotalsQuery } from "@/lib/bff/params";
import type { ListTotals, TransactionFilter } from "@/lib/model";

// GET /api/transactions/totals — the list's filtered set (from, to, status, search): count, gallons and amount (walks ≤ 5,000 rows; cached)
export const GET = withSession("GET /api/transactions/totals", async ({ request, session, key }) => {
  const q = parseQuery(request, TransactionTotalsQuery);
  const filter: TransactionFilter = { ...(q.from ? { from: q.from } : {}), ...(q.to ? { to: q.to } : {}), ...(q.status ? { status: q.status } : {}), ...(q.search ? { search: q.search } : {}) };
  const totals = await cache().get<ListTotals>(`${key}:totals:${JSON.stringify(filter)}`, getConfig().cacheTtlMs.summary, () => listTotals(session.credentials, filter));
  return Response.json(totals);
});
