import "server-only";

import { z } from "zod";

import { isFleetApiError } from "@/lib/fleet-api";
import { duration } from "@/lib/insights/exceptions/describe";
import { EXCEPTION_RULES } from "@/lib/insights/exceptions/rules";
import type { CatalogStation, ExceptionThresholds, SubjectHit } from "@/lib/insights/exceptions/types";
import { savingsConfig } from "@/lib/insights/savings-config";
import { type InsightCoverage, type LocalDateRange } from "@/lib/model";
import {
  EXCEPTION_GROUPS,
  EXCEPTION_HITS_PER_PAGE,
  EXCEPTION_RULE_IDS,
  type ExceptionGroup,
  type ExceptionHit,
  type ExceptionHitGroup,
  type ExceptionRuleId,
  type ExceptionsReply,
  isExceptionGroup,
  isExceptionRuleId,
} from "@/lib/model/insight-exceptions";

import { getCatalog } from "../catalog";
import { now } from "../clock";
import { BffError } from "../errors";
import { insightPeriodsOf, insightRangeShape, todayOf } from "../insights/range";
import { insightMirror } from "../insights/serving";
import type { MirrorAccess } from "../mirror/access";
import { readOffThread } from "../off-thread/pool";
import { fromPlain } from "../off-thread/tasks-exceptions";
import { type OperationContext, sessionOperation } from "../operation";
import { quoted } from "../quoted";
import { catalogIndex, historyRangeOf, type JudgedOutcome } from "./exceptions-read";
import { exceptionThresholds, thresholdTable } from "./exceptions-thresholds";

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
): Promise<Map<ExceptionRuleId, JudgedOutcome> | null> {
  if (query === null) return null;
  // Only the days the mirror holds whole, for the history as for the period: never a partial day.
  const history = await insightMirror(ctx, historyRangeOf(query, thresholds));
  // Off the request thread (lib/bff/off-thread): the rules hold a quarter's purchases and judge them in JavaScript.
  const plain = await readOffThread(access.store, "exceptions.judge", {
    customerId: access.customerId,
    query,
    historyQuery: history.query,
    catalog: catalog.stations === null ? null : [...catalog.stations],
    // The recorded prices are read where the rules run (the worker), not copied across per period.
    observedWindowMs: catalog.stations === null ? null : savingsConfig().windowMs,
    thresholds,
  });
  return fromPlain(plain);
}

const toHit = (h: SubjectHit): ExceptionHit => ({
  rule: h.rule,
  sentence: h.sentence(),
  at: new Date(h.atMs).toISOString(),
  localDate: h.localDate,
  transactionIds: h.transactionIds,
  context: h.context,
  driver: { id: h.subject.driverId, name: h.subject.driverName },
  card: h.subject.cardLast4,
});

const groupKeyOf = (h: SubjectHit, group: ExceptionGroup): string =>
  group === "driver" ? h.subject.driverId : h.subject.cardLast4;

/** Every group with its count, most hits first (then by label), and the hits in that order, newest first within. */
function grouped(
  hits: readonly SubjectHit[],
  group: ExceptionGroup,
): { groups: ExceptionHitGroup[]; hits: SubjectHit[] } {
  const byKey = new Map<string, { group: ExceptionHitGroup; hits: SubjectHit[] }>();
  for (const h of hits) {
    const key = groupKeyOf(h, group);
    let entry = byKey.get(key);
    if (entry === undefined) {
      const label = group === "driver" ? h.subject.driverName : `card •••• ${h.subject.cardLast4}`;
      byKey.set(key, (entry = { group: { key, label, count: 0 }, hits: [] }));
    }
    entry.group.count++;
    entry.hits.push(h);
  }
  const entries = [...byKey.values()].sort(
    (a, b) =>
      b.group.count - a.group.count ||
      a.group.label.localeCompare(b.group.label) ||
      a.group.key.localeCompare(b.group.key),
  );
  return { groups: entries.map((e) => e.group), hits: entries.flatMap((e) => e.hits) };
}

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
    const [found, foundBefore] = await Promise.all([
      runPeriod(current.mirror, ctx, current.query, catalog, thresholds),
      runPeriod(previous.mirror, ctx, previousQuery, catalog, thresholds),
    ]);
    const rule = q.rule !== undefined && isExceptionRuleId(q.rule) ? q.rule : null;
    const rules = EXCEPTION_RULES.map((r) => {
      const off = r.offReason?.(thresholds) ?? null;
      const notRun = off !== null || (r.needsCatalog && catalog.stations === null && found !== null);
      const outcome = found?.get(r.id);
      return {
        id: r.id,
        name: r.name,
        description: r.describe(thresholds),
        status: notRun ? ("not_run" as const) : ("run" as const),
        reason: off ?? (notRun ? catalog.reason : null),
        count: outcome?.hits.length ?? 0,
        previousCount: notRun || foundBefore === null ? null : (foundBefore.get(r.id)?.hits.length ?? 0),
        notJudged: outcome?.notJudged ?? null,
      };
    });
    const all = [...(found?.values() ?? [])]
      .flatMap((o) => o.hits)
      .filter((h) => rule === null || h.rule === rule)
      .sort((a, b) => b.atMs - a.atMs || a.rule.localeCompare(b.rule));
    const group = q.group !== undefined && isExceptionGroup(q.group) ? q.group : null;
    const ordered = group === null ? { groups: [], hits: all } : grouped(all, group);
    const { page, pages } = pageOf(q.page, all.length);
    const start = (page - 1) * EXCEPTION_HITS_PER_PAGE;
    return {
      periods,
      coverage: current.coverage,
      previousCoverage: previous.coverage satisfies InsightCoverage,
      rule,
      rules,
      hits: ordered.hits.slice(start, start + EXCEPTION_HITS_PER_PAGE).map(toHit),
      hitsTotal: all.length,
      page,
      pageSize: EXCEPTION_HITS_PER_PAGE,
      pages,
      group,
      groups: ordered.groups,
      thresholds: thresholdTable(thresholds),
      catalogNote: catalogNote(savingsConfig().windowMs),
    };
  },
});
