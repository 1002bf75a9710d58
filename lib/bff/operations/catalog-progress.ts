import "server-only";

import type { CatalogProgress } from "@/lib/model";

import { catalogProgress as progressOf, isCatalogLoading } from "../catalog-progress";
import { getConfig } from "../config";
import { sessionOperation } from "../operation";
import { NoQuery } from "../params";
import { exportLimit } from "../running-limit";
import { fleetApi } from "../upstream";

/**
 * GET /api/locations/progress — how far the walk of the whole station catalog (all=1) has got, and whether it waits
 * for the key's request budget.
 */
export const catalogProgress = sessionOperation({
  route: "GET /api/locations/progress",
  input: { query: NoQuery },
  csrf: "same-site",
  priority: "interactive",
  run: async (ctx, _input): Promise<CatalogProgress> => {
    // Reading the key's budget costs no upstream request.
    const budget = isCatalogLoading(ctx.key)
      ? {
          use: await fleetApi().budgetUse(ctx.session.credentials),
          windowMs: getConfig().upstream.windowMs,
          exportsRunning: exportLimit().runningForKey(ctx.key),
        }
      : undefined;
    return progressOf(ctx.key, budget);
  },
});
