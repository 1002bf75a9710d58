import { parseQuery, refuseHead, withSession } from "@/lib/bff/handler";
import { cache } from "@/lib/bff/cache";
import { now } from "@/lib/bff/clock";
import { getConfig } from "@/lib/bff/config";
import { BffError } from "@/lib/bff/errors";
import { MAX_SUMMARY_DAYS, SummaryQuery } from "@/lib/bff/params";
import { summaryLimit } from "@/lib/bff/running-limit";
import { summarize, utcDate } from "@/lib/bff/summary";
import type { TransactionSummary } from "@/lib/model";
import { fleetApi } from "@/lib/bff/upstream";

const DEFAULT_DAYS = 30;

// GET /api/transactions/summary — totals, a daily series and top drivers/stations/products over a date range (default: the last 30 days)
export const GET = withSession("GET /api/transactions/summary", async ({ request, session, key }) => {
  const q = parseQuery(request, SummaryQuery);
  const to = q.to ?? utcDate(now());
  const from = q.from ?? utcDate(Date.parse(to) - (DEFAULT_DAYS - 1) * 86_400_000);
  // Checked after the defaults are filled in: the series has one entry per day, so the range bounds the reply.
  if (from > to) throw new BffError("bad_request", `from (${from}) is after to (${to}).`);
  if (Date.parse(to) - Date.parse(from) > (MAX_SUMMARY_DAYS - 1) * 86_400_000)
    throw new BffError("bad_request", `from: the range is longer than ${String(MAX_SUMMARY_DAYS)} days.`);
  // One walk per range however many tabs ask (single flight), holding a slot (2 per session, 4 per key, else 429):
  // one user cannot queue walks without end. It stops when the last request waiting for it goes away.
  const summary = await cache().get<TransactionSummary>(
    `${key}:summary:${from}:${to}`,
    getConfig().cacheTtlMs.summary,
    (signal) =>
      summaryLimit().run(session.sid, key, () => summarize(fleetApi(), session.credentials, { from, to }, signal)),
    request.signal,
  );
  return Response.json(summary);
});

// HEAD: 405, nothing run (Next would otherwise run GET for it).
export const HEAD = refuseHead;
