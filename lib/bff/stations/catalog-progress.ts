import "server-only";

import type { CatalogProgress } from "@/lib/model";

import { sessionOperation } from "../http/operation";
import { NoQuery } from "../http/query";
import { getConfig } from "../platform/config";
import { exportLimit } from "../platform/running-limit";
import { fleetApi } from "../platform/upstream";
import { catalogProgress as progressOf, isCatalogLoading } from "./walk-progress";

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
