import "server-only";

import { z } from "zod";

import { type DateFilterCoverage, TRANSACTION_STATUSES, type TransactionFilter, US_STATE_CODES } from "@/lib/model";
import { MAX_SEARCH_LENGTH } from "@/lib/model/limits";
import { isIsoDay, isTimeZone, UTC_ZONE, zonedDaysToInstants } from "@/lib/model/time-zones";

import { quoted } from "../platform/quoted";
import { minNotAboveMax, mirrorShape } from "../transactions/mirror-params";
import { BffError } from "./errors";

/**
 * Query schemas of the BFF routes. Bounds follow the spec (transactions 1–200 per page, locations 1–500). Messages
 * are sentences a person can act on: they name the parameter in words and quote what was sent, and `parseQueryValues`
 * shows them as they are (no "from: from must…").
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point: they are refused in searches
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

const whole = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,7}$/, {
      error: (issue) =>
        `${name} must be a whole number from ${String(min)} to ${String(max)}; ${quoted(issue.input)} is not`,
    })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `${name} must be at least ${String(min)}` })
        .max(max, { error: `${name} must be at most ${String(max)}` }),
    )
    .optional();

const DATE_WORDS = { from: "The start date (from)", to: "The end date (to)" } as const;

/** A `from`/`to` day parameter (YYYY-MM-DD, a real calendar day), with its message in words. */
export const date = (name: keyof typeof DATE_WORDS) =>
  z
    .string()
    .refine(isIsoDay, {
      error: (issue) =>
        /^\d{4}-\d{2}-\d{2}$/.test(String(issue.input))
          ? `${DATE_WORDS[name]} ${quoted(issue.input)} is not a day of the calendar`
          : `${DATE_WORDS[name]} must be a day written as YYYY-MM-DD, e.g. 2026-05-01; ${quoted(issue.input)} is not`,
    })
    .optional();

/** The zone whose calendar days `from`/`to` are; without it they are UTC days (as the upstream counts). */
const timeZone = z
  .string()
  .refine(isTimeZone, {
    error: (issue) =>
      `The time zone (tz) must be an IANA zone name such as America/Chicago or UTC; ${quoted(issue.input)} is not one`,
  })
  .optional();

const search = z
  .string()
  .max(MAX_SEARCH_LENGTH, { error: `search must be at most ${String(MAX_SEARCH_LENGTH)} characters` })
  .refine((v) => !CONTROL_CHARS.test(v), { error: "search must not contain control characters" })
  .transform((v) => v.trim())
  .transform((v) => (v === "" ? undefined : v))
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

export const NoQuery = z.object({}).strict();

/** A query string as one value per name: a repeated parameter is a 400 naming it. */
export function queryValues(params: URLSearchParams): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    if (values.length > 1) throw new BffError("bad_request", `The parameter ${name} was given more than once.`);
    raw[name] = values[0] ?? "";
  }
  return raw;
}

/**
 * Query values checked with a zod object schema: unknown parameters and bad values are 400s naming the parameter,
 * every problem at once.
 */
export function parseQueryValues<T extends z.ZodType>(raw: Record<string, string>, schema: T): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const messages = parsed.error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") return `Unknown query parameter: ${issue.keys.join(", ")}.`;
    const name = issue.path.map(String).join(".");
    // Our messages name their parameter in words ("The start date (from) …"); only a bare one gets the name in front.
    return name && !issue.message.includes(name) ? `${name}: ${issue.message}.` : `${issue.message}.`;
  });
  throw new BffError("bad_request", [...new Set(messages)].join(" "));
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

export const LocationListQuery = z
  .object({
    page: whole("page", 1, 1_000_000),
    limit: whole("limit", 1, 500),
    all: z.enum(["1", "true"], { error: "all must be 1" }).optional(),
    /** The whole catalog gzip-packed (lib/bff/http/compress): only with all=1. */
    pack: z.enum(["gzip"], { error: "pack must be gzip" }).optional(),
    brand: z
      .string()
      .regex(/^[a-z0-9_-]{1,40}$/i, { error: "brand must be a chain code such as pilot" })
      .transform((v) => v.toLowerCase())
      .optional(),
    state: z
      .string()
      .transform((v) => v.toUpperCase())
      .pipe(z.enum(US_STATE_CODES, { error: "state must be a USPS two-letter code, e.g. TX" }))
      .optional(),
    search,
  })
  .strict()
  .refine((q) => q.pack === undefined || q.all !== undefined, {
    error: "pack=gzip is only for the whole catalog (all=1)",
    path: ["pack"],
  });

/** Ids go into one upstream path segment; anything else cannot exist and is a 404 without asking the upstream. */
export const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

/** Station ids per `GET /api/locations/prices` request: each unknown one costs an upstream call. */
const MAX_PRICE_IDS = 25;
/** How much of an unreadable id a 400 quotes back. */
const QUOTED_ID_LENGTH = 40;

export const StationPricesQuery = z
  .object({
    ids: z
      .string({ error: `ids is required: 1 to ${String(MAX_PRICE_IDS)} station ids separated by commas` })
      .transform((value, ctx) => {
        const ids = [
          ...new Set(
            value
              .split(",")
              .map((id) => id.trim())
              .filter((id) => id !== ""),
          ),
        ];
        if (ids.length === 0) {
          ctx.addIssue({
            code: "custom",
            message: `ids must name 1 to ${String(MAX_PRICE_IDS)} station ids separated by commas`,
          });
          return z.NEVER;
        }
        if (ids.length > MAX_PRICE_IDS) {
          ctx.addIssue({
            code: "custom",
            message: `ids names ${String(ids.length)} stations; ask for at most ${String(MAX_PRICE_IDS)} per request and the rest in another`,
          });
          return z.NEVER;
        }
        const bad = ids.find((id) => !ID.test(id));
        if (bad !== undefined) {
          const quoted = bad.length > QUOTED_ID_LENGTH ? `${bad.slice(0, QUOTED_ID_LENGTH)}…` : bad;
          ctx.addIssue({
            code: "custom",
            message: `“${quoted}” is not a station id (letters, digits, - and _, at most 100 characters; ids are separated by commas)`,
          });
          return z.NEVER;
        }
        return ids;
      }),
  })
  .strict();

export function checkId(id: string, what: string): string {
  if (!ID.test(id)) throw new BffError("not_found", `No such ${what}.`);
  return id;
}
