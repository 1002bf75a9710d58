import "server-only";

import { z } from "zod";

import { emptyJurisdictionReport, settlingOf, withPrevious } from "@/lib/mirror";
import type { JurisdictionReply } from "@/lib/model/insight-jurisdictions";

import { type OperationContext, sessionOperation } from "../http/operation";
import { now } from "../platform/clock";
import { utcDate } from "../platform/clock";
import { readOffThread } from "../platform/off-thread/pool";
import { insightPeriodsOf, insightRangeShape } from "./range";
import { insightMirror } from "./serving";

/** `quarter=YYYY-Qn` or `from`/`to` (purchase-local dates); neither: the last 30 days. */
export const JurisdictionQuery = z.object({ ...insightRangeShape }).strict();
export type JurisdictionQuery = z.infer<typeof JurisdictionQuery>;

/**
 * The report and its previous period, each over exactly the part the mirror covers (`insightMirror`): the reply's
 * coverage says which part that is, so the page never shows a silent partial number. Shared with the export.
 */
export async function jurisdictionReply(ctx: OperationContext, q: JurisdictionQuery): Promise<JurisdictionReply> {
  const periods = insightPeriodsOf(q, utcDate(now()));
  const current = await insightMirror(ctx, periods.current);
  const before = await insightMirror(ctx, periods.previous);
  const { store, customerId } = current.mirror;
  const [report, previous, settling] = await Promise.all([
    current.query === null
      ? emptyJurisdictionReport()
      : readOffThread(store, "jurisdictions.report", [customerId, current.query]),
    before.query === null ? null : readOffThread(store, "jurisdictions.report", [customerId, before.query]),
    settlingOf(store, customerId, current.query),
  ]);
  return {
    periods,
    coverage: current.coverage,
    previousCoverage: before.coverage,
    report: withPrevious(report, previous),
    previous: previous === null || before.query === null ? null : { range: before.query, totals: previous.totals },
    metric: "tax.completed.local-date",
    settling,
  };
}

/**
 * GET /api/reports/jurisdictions — fuel by station state × fuel class over a quarter or range of purchase-local
 * dates, completed purchases only, with the previous period per row and overall (issue 16 item 1). The mirror only:
 * without one for this session, a 409 that says why (`insightMirror`). Not cached: the mirror answers in milliseconds.
 */
export const getJurisdictionReport = sessionOperation({
  route: "GET /api/reports/jurisdictions",
  input: { query: JurisdictionQuery },
  csrf: "same-site",
  reads: "transactions",
  priority: "interactive",
  run: (ctx, q): Promise<JurisdictionReply> => jurisdictionReply(ctx, q),
});
