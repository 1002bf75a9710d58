import "server-only";

import type { TransactionSummaryReply } from "@/lib/model";
import { summaryRangeProblem } from "@/lib/model/summary-range";

import { BffError } from "../http/errors";
import { cached, sessionOperation } from "../http/operation";
import { now } from "../platform/clock";
import { utcDate } from "../platform/clock";
import { getConfig } from "../platform/config";
import { summaryLimit } from "../platform/running-limit";
import { fleetApi } from "../platform/upstream";
import { mirrorCovering } from "./mirror-coverage";
import { mirrorSummary } from "./mirror-summary";
import { SummaryQuery } from "./params";
import { summarize } from "./summary";

const DEFAULT_DAYS = 30;

/**
 * GET /api/transactions/summary — totals, a daily series and top drivers/stations/products over a range of UTC days
 * (default: the last 30 days). From the customer's mirror when it covers the range (any length up to ten years, with
 * the previous period of equal length), else the upstream walk (at most 366 days, `previous` null). Its route refuses HEAD (lib/bff/http/handler `refuseHead`): it would walk for no body.
 */
export const transactionSummary = sessionOperation({
  route: "GET /api/transactions/summary",
  input: { query: SummaryQuery },
  csrf: "same-site",
  reads: "transactions",
  priority: "bulk",
  cache: { name: "summary", ttlMs: () => getConfig().cacheTtlMs.summary },
  run: async (ctx, q): Promise<TransactionSummaryReply> => {
    const to = q.to ?? utcDate(now());
    const from = q.from ?? utcDate(Date.parse(to) - (DEFAULT_DAYS - 1) * 86_400_000);
    // Checked again after the defaults are filled in: the series has one entry per day, so the range bounds the reply.
    if (from > to) throw new BffError("bad_request", `from (${from}) is after to (${to}).`);
    // The mirror answers any range it covers, with the previous period; not cached (it answers in milliseconds).
    const serving = await mirrorCovering(ctx, Date.parse(from));
    if (serving.mirror !== null) return mirrorSummary(serving.mirror, serving.origin, { from, to });
    const problem = summaryRangeProblem(from, to);
    if (problem !== null) throw new BffError("bad_request", `${problem}.`);
    // One walk per range however many tabs ask (single flight), holding a slot (2 per session, 4 per key, else 429):
    // one user cannot queue walks without end. It stops when the last request waiting for it goes away. No previous
    // period from the upstream: it would double the walk.
    const summary = await cached(ctx, transactionSummary.cache, { from, to }, (signal) =>
      summaryLimit().run(ctx.session.sid, ctx.key, () =>
        summarize(fleetApi(), ctx.session.credentials, { from, to }, signal),
      ),
    );
    // The walk reads UTC days: its rankings say so (lib/model/metrics "spend.utc-day"); no comparison without a copy.
    return { ...summary, previous: null, comparison: null, rankingMetric: "spend.utc-day", origin: serving.origin };
  },
});
