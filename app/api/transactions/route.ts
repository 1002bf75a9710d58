import { withSession, parseQuery } from "@/lib/bff/handler";
import { cache } from "@/lib/bff/cache";
import { getConfig } from "@/lib/bff/config";
import { TransactionListQuery } from "@/lib/bff/params";
import { fleetApi } from "@/lib/bff/upstream";
import type { Page, Transaction } from "@/lib/model";

// GET /api/transactions — one page; query: page, limit (1–200), from, to (UTC dates), status, search
export const GET = withSession("GET /api/transactions", async ({ request, session, key }) => {
  const q = parseQuery(request, TransactionListQuery);
  const query = { page: q.page ?? 1, limit: q.limit ?? 50, ...(q.from ? { from: q.from } : {}), ...(q.to ? { to: q.to } : {}), ...(q.status ? { status: q.status } : {}), ...(q.search ? { search: q.search } : {}) };
  const page = await cache().get<Page<Transaction>>(
    `${key}:transactions:${JSON.stringify(query)}`,
    getConfig().cacheTtlMs.transactions,
    (signal) => fleetApi().listTransactions(session.credentials, query, { signal }),
    request.signal,
  );
  return Response.json(page);
});
