import "server-only";

import { z } from "zod";

import { savingsConfig } from "@/lib/insights/savings-config";
import { savingsFor } from "@/lib/insights/savings-query";
import { lastCatalogWalkMs, type MirrorCatalog, readCatalog } from "@/lib/mirror/catalog";
import type { SavingsReply } from "@/lib/model/insight-savings";

import { getCatalog, recordWalk } from "../catalog";
import { now } from "../clock";
import { insightPeriodsOf, insightRangeShape, todayOf } from "../insights/range";
import { insightMirror } from "../insights/serving";
import { logger } from "../log";
import type { MirrorAccess } from "../mirror/access";
import { mirrorShape } from "../mirror-serve/params";
import type { OperationContext } from "../operation";
import { sessionOperation } from "../operation";

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
 * The mirror's record of the catalog, walked again first when none was recorded or the last is older than
 * CATALOG_REFRESH_HOURS: the walk (⌈stations/500⌉ upstream calls, bulk priority, cached per customer for minutes)
 * records every changed price, so the history keeps growing while the customer uses the dashboard. A failed walk with
 * an older record at hand compares against that record (logged); without any record it fails the request.
 */
async function catalogOf(ctx: OperationContext, mirror: MirrorAccess): Promise<MirrorCatalog> {
  const last = await lastCatalogWalkMs(mirror.store, mirror.customerId);
  if (last === null || now() - last > savingsConfig().catalogRefreshMs) {
    try {
      // getCatalog records a walk it makes; a catalog it serves from its cache is recorded here (idempotent).
      await recordWalk(mirror, await getCatalog(ctx.session.credentials, ctx.key, mirror));
    } catch (error) {
      if (last === null) throw error;
      logger().warn({ err: error instanceof Error ? error.message : String(error) }, "savings: catalog refresh failed");
    }
  }
  return readCatalog(mirror.store, mirror.customerId);
}

/**
 * GET /api/savings — what the fleet could have saved over a range of purchase-local dates (quarter, or from/to;
 * default the last 30 days), for the whole fleet or one driver or station: paid against the cheapest catalog price
 * within SAVINGS_RADIUS_MILES and the state's median (lib/insights/savings), with the previous period. From the
 * mirror only (409 `mirror_needed` without it); the reply's coverage says what part of the range the figures cover.
 */
export const getSavings = sessionOperation({
  route: "GET /api/savings",
  input: { query: SavingsQuery },
  csrf: "same-site",
  priority: "bulk",
  run: async (ctx, q): Promise<SavingsReply> => {
    const periods = insightPeriodsOf(q, todayOf(now()));
    const scope = { driverId: q.driver, stationId: q.station };
    // insightMirror refuses (409, a sentence) a session without its mirror; the previous period is asked apart.
    const current = await insightMirror(ctx, periods.current);
    const previous = await insightMirror(ctx, periods.previous);
    const catalog = await catalogOf(ctx, current.mirror);
    const { radiusMiles } = savingsConfig();
    const shown = await savingsFor(
      current.mirror.store,
      current.mirror.customerId,
      current.query,
      scope,
      catalog,
      radiusMiles,
    );
    const before = await savingsFor(
      previous.mirror.store,
      previous.mirror.customerId,
      previous.query,
      scope,
      catalog,
      radiusMiles,
    );
    return {
      range: periods.current,
      scope: { driverId: q.driver ?? null, stationId: q.station ?? null },
      radiusMiles,
      coverage: current.coverage,
      current: shown.figures,
      previous: { range: periods.previous, coverage: previous.coverage, figures: before.figures },
      top: shown.top,
      catalog: {
        stations: catalog.stations.length,
        lastWalkAt: catalog.lastWalkMs === null ? null : new Date(catalog.lastWalkMs).toISOString(),
        historySince: catalog.historyFromMs === null ? null : new Date(catalog.historyFromMs).toISOString(),
      },
    };
  },
});
