import "server-only";

import { z } from "zod";

import type { InsightPeriods, LocalDateRange } from "@/lib/model/insights";

import { BffError } from "../errors";

// STUB of the insights contract (replaced by the lead's "Insights contract" commit on merge).

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const insightRangeShape = {
  quarter: z
    .string()
    .regex(/^\d{4}-Q[1-4]$/, { error: "The quarter must be written as YYYY-Qn, e.g. 2026-Q3" })
    .optional(),
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "The start date (from) must be a day written as YYYY-MM-DD" })
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "The end date (to) must be a day written as YYYY-MM-DD" })
    .optional(),
};

export function quarterRange(quarter: string): LocalDateRange {
  const year = Number(quarter.slice(0, 4));
  const q = Number(quarter.slice(6));
  const from = Date.UTC(year, (q - 1) * 3, 1);
  const to = Date.UTC(year, q * 3, 1) - DAY_MS;
  return { from: day(from), to: day(to) };
}

export function insightPeriodsOf(
  query: { quarter?: string | undefined; from?: string | undefined; to?: string | undefined },
  today: string,
  defaultDays = 30,
): InsightPeriods {
  if (query.quarter !== undefined) {
    if (query.from !== undefined || query.to !== undefined)
      throw new BffError("bad_request", "Ask for a quarter or a range (from, to), not both.");
    const current = quarterRange(query.quarter);
    const previous = quarterRange(day(Date.parse(current.from) - DAY_MS).slice(0, 4) + "-Q" + String(Math.floor(Number(day(Date.parse(current.from) - DAY_MS).slice(5, 7)) / 3.01) + 1));
    return { current, previous };
  }
  const to = query.to ?? today;
  const from = query.from ?? day(Date.parse(to) - (defaultDays - 1) * DAY_MS);
  if (from > to) throw new BffError("bad_request", `The start date (${from}) is after the end date (${to}).`);
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days > 3660) throw new BffError("bad_request", "The range is longer than ten years; ask for a shorter one.");
  return {
    current: { from, to },
    previous: { from: day(Date.parse(from) - days * DAY_MS), to: day(Date.parse(from) - DAY_MS) },
  };
}
