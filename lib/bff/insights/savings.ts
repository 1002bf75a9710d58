import "server-only";

import { z } from "zod";

import { NO_SAVINGS, type SavingsParams } from "@/lib/insights/savings";
import { savingsConfig } from "@/lib/insights/savings-config";
import { comparisonsState, prepareComparisons, writeJudgedBatch } from "@/lib/insights/savings-stored";
import { lastCatalogWalkMs } from "@/lib/mirror";
import type { InsightCoverage, InsightPeriods } from "@/lib/model";
import type { SavingsReply } from "@/lib/model/insight-savings";

import type { OperationContext } from "../http/operation";
import { sessionOperation } from "../http/operation";
import { now } from "../platform/clock";
import { logger } from "../platform/log";
import type { MirrorAccess } from "../platform/mirror-access";
import { readOffThread } from "../platform/off-thread/pool";
import { getCatalog, recordWalk } from "../stations";
import { mirrorShape } from "../transactions";
import { insightPeriodsOf, insightRangeShape, todayOf } from "./range";
import { insightMirror } from "./serving";

const SavingsQuery = z
  .object({ ...insightRangeShape, driver: mirrorShape.driver, station: mirrorShape.station })
  .superRefine((q, ctx) => {
    if (q.driver !== undefined && q.station !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["driver"],
        message: "Ask for one driver (driver) or one station (station), not both at once",
      });
  });

/**
 * Walks the catalog again in the background when none was recorded or the last record is older than
 * CATALOG_REFRESH_HOURS: the walk (⌈stations/500⌉ upstream calls at bulk priority, single-flight and cached per
 * customer for minutes) records every changed price, so the history keeps growing while the customer uses the
 * dashboard. Never awaited: the walk queues behind the sync's own bulk calls after a sign-in, and the reply must not
 * wait for it (the panel says the catalog is loading and asks again). A failed walk is logged; the next request
 * starts another.
 */
async function refreshCatalog(ctx: OperationContext, mirror: MirrorAccess): Promise<number | null> {
  const last = await lastCatalogWalkMs(mirror.store, mirror.customerId);
  if (last !== null && now() - last <= savingsConfig().catalogRefreshMs) return last;
  // getCatalog records a walk it makes; a catalog it serves from its cache is recorded here (idempotent).
  getCatalog(ctx.session.credentials, ctx.key, mirror)
    .then((stations) => recordWalk(mirror, stations))
    .catch((error: unknown) => {
      logger().warn({ err: error instanceof Error ? error.message : String(error) }, "savings: catalog walk failed");
    });
  return last;
}

/**
 * The most pending fills a request compares itself (a sync's few new fills; one batch on the worker pool, then a
 * short write). More are left to the background loop (lib/bff/sync/comparisons), and the reply says so.
 */
export const REQUEST_COMPARE_LIMIT = 200;

/**
 * Where the stored comparisons stand for this request: a few pending fills are compared here; more start (or leave
 * running) the background loop and are reported as `comparing` — the figures are those of the fills compared so far.
 */
async function comparing(mirror: MirrorAccess, params: SavingsParams): Promise<SavingsReply["comparing"]> {
  const { store, customerId } = mirror;
  let state = await comparisonsState(store, customerId, params);
  if (state.pending > 0 && state.pending <= REQUEST_COMPARE_LIMIT) {
    await prepareComparisons(store, customerId, params);
    const batch = await readOffThread(store, "savings.judge-pending", {
      customerId,
      params,
      limit: REQUEST_COMPARE_LIMIT,
    });
    await writeJudgedBatch(store, customerId, batch);
    state = await comparisonsState(store, customerId, params);
  }
  if (state.pending === 0) return null;
  mirror.comparePending();
  return state;
}

/** The reply while no catalog is recorded yet: no figures (zeros), `catalog.state` "loading". */
function loadingReply(
  periods: InsightPeriods,
  scope: { driverId?: string | undefined; stationId?: string | undefined },
  coverage: InsightCoverage,
  previousCoverage: InsightCoverage,
): SavingsReply {
  return {
    range: periods.current,
    scope: { driverId: scope.driverId ?? null, stationId: scope.stationId ?? null },
    radiusMiles: savingsConfig().radiusMiles,
    windowHours: savingsConfig().windowHours,
    coverage,
    current: NO_SAVINGS,
    previous: { range: periods.previous, coverage: previousCoverage, figures: NO_SAVINGS },
    top: [],
    comparing: null,
    catalog: { state: "loading", stations: 0, lastWalkAt: null, historySince: null },
  };
}

/**
 * GET /api/savings — what the fleet could have saved over a range of purchase-local dates (quarter, or from/to;
 * default the last 30 days), for the whole fleet or one driver or station: paid against the cheapest price observed
 * within PRICE_WINDOW_HOURS of each fill at the other stations within SAVINGS_RADIUS_MILES, the state's median, and
 * the station's own observed price (lib/insights/savings), with the previous period. From the
 * mirror only (409 `mirror_needed` without it); the reply's coverage says what part of the range the figures cover,
 * and `catalog.state` "loading" (no figures) until a catalog walk has been recorded.
 */
export const getSavings = sessionOperation({
  route: "GET /api/savings",
  input: { query: SavingsQuery },
  csrf: "same-site",
  reads: "transactions",
  priority: "bulk",
  run: async (ctx, q): Promise<SavingsReply> => {
    const periods = insightPeriodsOf(q, todayOf(now()));
    const scope = { driverId: q.driver, stationId: q.station };
    // insightMirror refuses (409, a sentence) a session without its mirror; the previous period is asked apart.
    const current = await insightMirror(ctx, periods.current);
    const previous = await insightMirror(ctx, periods.previous);
    // The walk recorded when the request came (a walk this request started answers the next one, as the panel says).
    const lastWalk = await refreshCatalog(ctx, current.mirror);
    if (lastWalk === null) return loadingReply(periods, scope, current.coverage, previous.coverage);
    const { radiusMiles, windowHours, windowMs } = savingsConfig();
    // The fills the sync or a catalog walk changed are compared in the background (a few here); both periods are
    // summed from the stored comparisons off the request thread (lib/bff/platform/off-thread).
    const stillComparing = await comparing(current.mirror, { radiusMiles, windowMs });
    const read = await readOffThread(current.mirror.store, "savings.both", {
      customerId: current.mirror.customerId,
      current: current.query,
      previous: previous.query,
      scope,
    });
    if (read === null) return loadingReply(periods, scope, current.coverage, previous.coverage);
    const { shown, before } = read;
    return {
      range: periods.current,
      scope: { driverId: q.driver ?? null, stationId: q.station ?? null },
      radiusMiles,
      windowHours,
      coverage: current.coverage,
      current: shown.figures,
      previous: { range: periods.previous, coverage: previous.coverage, figures: before.figures },
      top: shown.top,
      comparing: stillComparing,
      catalog: {
        state: "ready",
        stations: read.stations,
        lastWalkAt: new Date(read.lastWalkMs).toISOString(),
        historySince: read.historyFromMs === null ? null : new Date(read.historyFromMs).toISOString(),
      },
    };
  },
});
