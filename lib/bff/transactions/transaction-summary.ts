import "server-only";

import type { TransactionSummaryReply } from "@/lib/model";

import { BffError } from "../http/errors";
import { sessionOperation } from "../http/operation";
import { now, utcDate } from "../platform/clock";
import { chooseSource } from "./choose-source";
import { SummaryQuery } from "./params";
import { SUMMARY_CACHE } from "./upstream-source";

const DEFAULT_DAYS = 30;

/**
 * GET /api/transactions/summary — totals, a daily series and top drivers/stations/products over a range of UTC days
 * (default: the last 30 days). From the customer's mirror when it covers the range (any length up to ten years, with
 * the previous period of equal length), else the upstream walk (at most 366 days, `previous` null). Its route refuses
 * HEAD (lib/bff/http/route.ts `refuseHead`): it would walk for no body.
 */
export const transactionSummary = sessionOperation({
  route: "GET /api/transactions/summary",
  input: { query: SummaryQuery },
  csrf: "same-site",
  reads: "transactions",
  priority: "bulk",
  cache: SUMMARY_CACHE,
  run: async (ctx, q): Promise<TransactionSummaryReply> => {
    const to = q.to ?? utcDate(now());
    const from = q.from ?? utcDate(Date.parse(to) - (DEFAULT_DAYS - 1) * 86_400_000);
    // Checked again after the defaults are filled in: the series has one entry per day, so the range bounds the reply.
    if (from > to) throw new BffError("bad_request", `from (${from}) is after to (${to}).`);
    const source = await chooseSource(ctx, { fromMs: Date.parse(from) });
    return source.summary({ from, to });
  },
});
