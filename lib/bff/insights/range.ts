import "server-only";

import { z } from "zod";

import {
  addDays,
  daysIn,
  type InsightPeriods,
  type LocalDateRange,
  previousQuarter,
  QUARTER_PATTERN,
  quarterRange,
} from "@/lib/model";

import { BffError } from "../http/errors";
import { date } from "../http/query";
import { utcDate } from "../platform/clock";
import { quoted } from "../platform/quoted";

/**
 * The period of an insight route (issue 16): `quarter=YYYY-Qn`, or `from`/`to` dates (purchase-local, both ends
 * inclusive), or neither (the last `defaultDays` days up to today). Spread `insightRangeShape` into the route's query
 * schema and read it with `insightPeriodsOf`, which also gives the period it is compared with.
 */
export const insightRangeShape = {
  quarter: z
    .string()
    .regex(QUARTER_PATTERN, {
      error: (issue) => `The quarter (quarter) must be written like 2026-Q3 (Q1 to Q4); ${quoted(issue.input)} is not`,
    })
    .optional(),
  from: date("from"),
  to: date("to"),
};

export interface InsightRangeQuery {
  quarter?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** The longest range an insight takes: ten years. */
export const MAX_INSIGHT_DAYS = 3_653;

/** The range asked for and the one before it; a 400 with a sentence for a combination that cannot be read. */
export function insightPeriodsOf(q: InsightRangeQuery, today: string, defaultDays = 30): InsightPeriods {
  if (q.quarter !== undefined) {
    if (q.from !== undefined || q.to !== undefined)
      throw new BffError(
        "bad_request",
        "Give either a quarter (quarter) or a range (from and to), not both; remove one of them.",
      );
    const current = quarterRange(q.quarter);
    const previous = current && quarterRange(previousQuarter(q.quarter));
    if (!current || !previous) throw new BffError("bad_request", `The quarter ${quoted(q.quarter)} is not one.`);
    return { current, previous };
  }
  const to = q.to ?? (q.from !== undefined && q.from > today ? q.from : today);
  const from = q.from ?? addDays(to, -(defaultDays - 1));
  if (from > to)
    throw new BffError(
      "bad_request",
      `The start date (from, ${from}) is after the end date (to, ${to}); swap them or pick another range.`,
    );
  const current: LocalDateRange = { from, to };
  const days = daysIn(current);
  if (days > MAX_INSIGHT_DAYS)
    throw new BffError(
      "bad_request",
      `The range ${from} to ${to} is ${String(days)} days long; pick at most ten years (${String(MAX_INSIGHT_DAYS)} days).`,
    );
  return { current, previous: { from: addDays(from, -days), to: addDays(from, -1) } };
}

/** Today's date for the insight defaults: the UTC date of `nowMs` (the BFF's one rule, ../summary's utcDate). */
export const todayOf = utcDate;
