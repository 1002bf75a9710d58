import { withSession, parseQuery } from "@/lib/bff/handler";
import { cache } from "@/lib/bff/cache";
import { getConfig } from "@/lib/bff/config";
import { listTotals } from "@/lib/bff/list-totals";
import { TransactionTotalsQuery, upstreamFilterOf } from "@/lib/bff/params";
import type { ListTotals } from "@/lib/model";

// GET /api/transactions/totals — the list's filtered set (from, to, tz, status, search): count, gallons and amount (walks ≤ 5,000 rows; cached)
export const GET = withSession("GET /api/transactions/totals", async ({ request, session, key }) => {
  const q = parseQuery(request, TransactionTotalsQuery);
  // The zone's days as instants; a dates-only upstream is walked over the covering days and trimmed (list-totals).
  const filter = upstreamFilterOf(q);
  const totals = await cache().get<ListTotals>(
    `${key}:totals:${JSON.stringify(filter)}`,
    getConfig().cacheTtlMs.summary,
    (signal) => listTotals(session.credentials, filter, signal),
    request.signal,
  );
  return Response.json(totals);
});
