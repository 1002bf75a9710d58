import "server-only";

import { z } from "zod";

import { isFleetApiError } from "@/lib/fleet-api";
import { duration } from "@/lib/insights/exceptions/describe";
import { EXCEPTION_RULES } from "@/lib/insights/exceptions/rules";
import type { CatalogStation, ExceptionThresholds } from "@/lib/insights/exceptions/types";
import { savingsConfig } from "@/lib/insights/savings-config";
import { type InsightCoverage, type LocalDateRange } from "@/lib/model";
import {
  EXCEPTION_GROUPS,
  EXCEPTION_HITS_PER_PAGE,
  EXCEPTION_RULE_IDS,
  type ExceptionHit,
  type ExceptionsReply,
  isExceptionGroup,
  isExceptionRuleId,
} from "@/lib/model/insight-exceptions";

import { BffError } from "../http/errors";
import { type OperationContext, sessionOperation } from "../http/operation";
import { now } from "../platform/clock";
import type { MirrorAccess } from "../platform/mirror-access";
import { readOffThread } from "../platform/off-thread/pool";
import type { JudgedPlain } from "../platform/off-thread/tasks-exceptions";
import { quoted } from "../platform/quoted";
import { getCatalog } from "../stations";
import { type HitsView, type PlainHit } from "./exceptions-page";
import { catalogIndex, historyRangeOf } from "./exceptions-read";
import { exceptionThresholds, thresholdTable } from "./exceptions-thresholds";
import { insightPeriodsOf, insightRangeShape, todayOf } from "./range";
import { insightMirror } from "./serving";

/**
 * The longest period judged at once: the rules hold every purchase of the period (and its history) in memory, so a
 * ten-year range would hold millions. A quarter is at most 92 days, so every quarter the page offers fits.
 */
export const EXCEPTIONS_MAX_DAYS = 92;
const DAY_MS = 86_400_000;

function refuseLongPeriod(range: LocalDateRange): void {
  const days = Math.round((Date.parse(range.to) - Date.parse(range.from)) / DAY_MS) + 1;
  if (days > EXCEPTIONS_MAX_DAYS)
    throw new BffError(
      "bad_request",
      `The exceptions are checked over at most ${String(EXCEPTIONS_MAX_DAYS)} days at a time (a quarter); ${range.from} to ${range.to} is ${String(days)} days. Choose a quarter or a shorter range.`,
    );
}

const catalogNote = (windowMs: number) =>
  `The price rule compares each diesel fill with its station's customer price as the catalog walks observed it within ${duration(windowMs)} of the purchase, never with today's price for an older fill: a purchase with no observation that close is not judged, and counted.`;

const ExceptionsQuery = z
  .object({
    ...insightRangeShape,
    rule: z
      .string()
      .refine(isExceptionRuleId, {
        error: (issue) =>
          `The rule (rule) must be one of ${EXCEPTION_RULE_IDS.join(", ")}; ${quoted(issue.input)} is not one`,
      })
      .optional(),
    group: z
      .string()
      .refine(isExceptionGroup, {
        error: (issue) =>
          `The grouping (group) must be one of ${EXCEPTION_GROUPS.join(", ")}, or left out for none; ${quoted(issue.input)} is not one`,
      })
      .optional(),
    page: z
      .string()
      .refine((v) => /^[1-9]\d{0,5}$/.test(v), {
        error: (issue) => `The page (page) must be a whole number from 1; ${quoted(issue.input)} is not one`,
      })
      .optional(),
  })
  .strict();

type Catalog = { stations: ReadonlyMap<string, CatalogStation>; reason: null } | { stations: null; reason: string };

/**
 * The station catalog (locations scope) and the prices the mirror's record of its walks observed (the walk made here
 * is recorded first); when the catalog cannot be read, why, so the catalog rules say they did not run.
 */
async function readCatalog(ctx: OperationContext, mirror: MirrorAccess): Promise<Catalog> {
  try {
    const stations = catalogIndex(await getCatalog(ctx.session.credentials, ctx.key, mirror));
    return { stations, reason: null };
  } catch (error) {
    if (!isFleetApiError(error)) throw error;
    if (error.code === "scope_denied")
      return {
        stations: null,
        reason:
          "Not run: it needs the station catalog, and your API key lacks the locations scope. Ask for a key with the locations scope.",
      };
    return {
      stations: null,
      reason: `Not run: the station catalog could not be read from the Fleet Fuel API just now (${error.message}). Reload to try again.`,
    };
  }
}

/** Every rule over one period's covered days (null: none covered, nothing run). */
async function runPeriod(
  access: MirrorAccess,
  ctx: OperationContext,
  query: LocalDateRange | null,
  catalog: Catalog,
  thresholds: ExceptionThresholds,
  view: HitsView | null,
): Promise<JudgedPlain | null> {
  if (query === null) return null;
  // Only the days the mirror holds whole, for the history as for the period: never a partial day.
  const history = await insightMirror(ctx, historyRangeOf(query, thresholds));
  // Off the request thread (lib/bff/platform/off-thread): the rules hold a quarter's purchases and judge them in JavaScript.
  return readOffThread(access.store, "exceptions.judge", {
    customerId: access.customerId,
    query,
    historyQuery: history.query,
    catalog: catalog.stations === null ? null : [...catalog.stations],
    // The recorded prices are read where the rules run (the worker), not copied across per period.
    observedWindowMs: catalog.stations === null ? null : savingsConfig().windowMs,
    thresholds,
    view,
  });
}

const toHit = (h: PlainHit): ExceptionHit => ({
  rule: h.rule,
  sentence: h.sentenceText,
  at: new Date(h.atMs).toISOString(),
  localDate: h.localDate,
  transactionIds: h.transactionIds,
  context: h.context,
  driver: { id: h.subject.driverId, name: h.subject.driverName },
  card: h.subject.cardLast4,
});

/** The page asked for of `total` hits; past the last page is a 400 that says how many there are. */
function pageOf(asked: string | undefined, total: number): { page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(total / EXCEPTION_HITS_PER_PAGE));
  const page = asked === undefined ? 1 : Number(asked);
  if (page > pages)
    throw new BffError(
      "bad_request",
      `The page (page) ${String(page)} is past the last one: ${String(total)} ${total === 1 ? "hit makes" : "hits make"} ${String(pages)} ${pages === 1 ? "page" : "pages"} of ${String(EXCEPTION_HITS_PER_PAGE)}. Ask for page 1 to ${String(pages)}.`,
    );
  return { page, pages };
}

/**
 * GET /api/exceptions — the exception rules (issue 16 item 3) over a period (quarter, or from/to purchase-local dates,
 * default the last 30 days) from the mirror: each rule's count and the previous period's, the hits newest first with
 * their sentences and transactions (`rule=` narrows the hits to one rule), a page of them (`page=`, every hit
 * reachable) grouped by driver or card when asked (`group=`, with each group's count), the thresholds in force, and
 * coverage.
 */
export const exceptionsOperation = sessionOperation({
  route: "GET /api/exceptions",
  input: { query: ExceptionsQuery },
  csrf: "same-site",
  reads: "transactions",
  priority: "bulk",
  run: async (ctx, q): Promise<ExceptionsReply> => {
    const periods = insightPeriodsOf(q, todayOf(now()));
    refuseLongPeriod(periods.current);
    const thresholds = exceptionThresholds();
    const [current, previous] = [await insightMirror(ctx, periods.current), await insightMirror(ctx, periods.previous)];
    // A change compares whole periods only: while either is partly loaded, no previous count (the page says "Not
    // known" and shows the coverage notes) — a partial count would read as a drop or a rise that is not there.
    const comparable = current.coverage.complete && previous.coverage.complete;
    const previousQuery = comparable ? previous.query : null;
    const needsCatalog = current.query !== null || previousQuery !== null;
    const catalog: Catalog = needsCatalog
      ? await readCatalog(ctx, current.mirror)
      : { stations: null, reason: "No days to judge." };
    const rule = q.rule !== undefined && isExceptionRuleId(q.rule) ? q.rule : null;
    const group = q.group !== undefined && isExceptionGroup(q.group) ? q.group : null;
    const asked = q.page === undefined ? 1 : Number(q.page);
    const [found, foundBefore] = await Promise.all([
      runPeriod(current.mirror, ctx, current.query, catalog, thresholds, { rule, group, page: asked }),
      runPeriod(previous.mirror, ctx, previousQuery, catalog, thresholds, null),
    ]);
    const counts = new Map(found?.rules);
    const countsBefore = foundBefore === null ? null : new Map(foundBefore.rules);
    const rules = EXCEPTION_RULES.map((r) => {
      const off = r.offReason?.(thresholds) ?? null;
      const notRun = off !== null || (r.needsCatalog && catalog.stations === null && found !== null);
      const outcome = counts.get(r.id);
      return {
        id: r.id,
        name: r.name,
        description: r.describe(thresholds),
        status: notRun ? ("not_run" as const) : ("run" as const),
        reason: off ?? (notRun ? catalog.reason : null),
        count: outcome?.count ?? 0,
        previousCount: notRun || countsBefore === null ? null : (countsBefore.get(r.id)?.count ?? 0),
        notJudged: outcome?.notJudged ?? null,
      };
    });
    const hits = found?.page ?? { hits: [], total: 0, groups: [] };
    const { page, pages } = pageOf(q.page, hits.total);
    return {
      periods,
      coverage: current.coverage,
      previousCoverage: previous.coverage satisfies InsightCoverage,
      rule,
      rules,
      hits: hits.hits.map(toHit),
      hitsTotal: hits.total,
      page,
      pageSize: EXCEPTION_HITS_PER_PAGE,
      pages,
      group,
      groups: hits.groups,
      thresholds: thresholdTable(thresholds),
      catalogNote: catalogNote(savingsConfig().windowMs),
    };
  },
});
