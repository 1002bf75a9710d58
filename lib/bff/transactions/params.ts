import "server-only";

import { z } from "zod";

import { type DateFilterCoverage, TRANSACTION_STATUSES, type TransactionFilter } from "@/lib/model";
import { isTimeZone, UTC_ZONE, zonedDaysToInstants } from "@/lib/model/time-zones";

import { date, search, whole } from "../http/query";
import { quoted } from "../platform/quoted";
import { minNotAboveMax, mirrorShape } from "./mirror-params";

/** Query schemas of the transactions routes (list, totals, summary, export and its progress). */

/** The zone whose calendar days `from`/`to` are; without it they are UTC days (as the upstream counts). */
const timeZone = z
  .string()
  .refine(isTimeZone, {
    error: (issue) =>
      `The time zone (tz) must be an IANA zone name such as America/Chicago or UTC; ${quoted(issue.input)} is not one`,
  })
  .optional();

const fromNotAfterTo = (q: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) => {
  if (q.from !== undefined && q.to !== undefined && q.from > q.to) {
    ctx.addIssue({
      code: "custom",
      path: ["from"],
      message: `The start date (from, ${q.from}) is after the end date (to, ${q.to}); swap them or pick another range`,
    });
  }
};

const filterShape = {
  from: date("from"),
  to: date("to"),
  tz: timeZone,
  status: z
    .enum(TRANSACTION_STATUSES, {
      error: (issue) => `The status must be one of ${TRANSACTION_STATUSES.join(", ")}; ${quoted(issue.input)} is not`,
    })
    .optional(),
  search,
};

/** The list's filters as the routes read them: `from`/`to` days, in `tz` when given (else UTC days). */
export interface ListFilterQuery {
  from?: string | undefined;
  to?: string | undefined;
  tz?: string | undefined;
  status?: TransactionFilter["status"];
  search?: string | undefined;
}

/**
 * The upstream filter for a zone's days: exact instants (the first millisecond of `from` to the last of `to` in
 * `tz`). The client sends them as they are where the upstream takes datetimes, and as the UTC days that cover them
 * where it takes dates only (see FleetApiClient.listTransactions). Without `tz`: UTC days, as before.
 */
export function upstreamFilterOf(q: ListFilterQuery): TransactionFilter {
  const bounds =
    q.tz === undefined
      ? { ...(q.from ? { from: q.from } : {}), ...(q.to ? { to: q.to } : {}) }
      : zonedDaysToInstants(q.from, q.to, q.tz);
  return { ...bounds, ...(q.status ? { status: q.status } : {}), ...(q.search ? { search: q.search } : {}) };
}

/** What a dated filter covers: the zone's days as instants (the list and the export are exact on both shapes). */
export function dateCoverageOf(q: ListFilterQuery): DateFilterCoverage | null {
  if (q.from === undefined && q.to === undefined) return null;
  const zone = q.tz ?? UTC_ZONE;
  const instants = zonedDaysToInstants(q.from, q.to, zone);
  return { timeZone: zone, from: instants.from ?? null, to: instants.to ?? null };
}

export const TransactionListQuery = z
  .object({ ...filterShape, ...mirrorShape, page: whole("page", 1, 1_000_000), limit: whole("limit", 1, 200) })
  .strict()
  .superRefine(fromNotAfterTo)
  .superRefine(minNotAboveMax);

/** The list's filters alone (`GET /api/transactions/totals`), the mirror-only ones included (sort is ignored). */
export const TransactionTotalsQuery = z
  .object({ ...filterShape, ...mirrorShape })
  .strict()
  .superRefine(fromNotAfterTo)
  .superRefine(minNotAboveMax);

export const ExportQuery = z
  .object({
    ...filterShape,
    format: z.enum(["csv", "xlsx"], { error: "format must be csv or xlsx" }),
    exportId: z
      .string()
      .regex(/^[A-Za-z0-9-]{8,64}$/, { error: "exportId must be 8–64 letters, digits or dashes" })
      .optional(),
    ...mirrorShape,
  })
  .strict()
  .superRefine(fromNotAfterTo)
  .superRefine(minNotAboveMax);

export const ExportProgressQuery = z
  .object({
    exportId: z.string().regex(/^[A-Za-z0-9-]{8,64}$/, { error: "exportId must be 8–64 letters, digits or dashes" }),
  })
  .strict();

/**
 * The summary's range: UTC days. Its length is checked by the operation (lib/bff/transactions/transaction-summary):
 * the upstream walk keeps the 366-day limit, the mirror answers any range.
 */
export const SummaryQuery = z
  .object({ from: date("from"), to: date("to") })
  .strict()
  .superRefine(fromNotAfterTo);
