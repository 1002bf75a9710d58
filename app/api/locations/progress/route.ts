import { withSession, parseQuery } from "@/lib/bff/handler";
import { catalogProgress, isCatalogLoading } from "@/lib/bff/catalog-progress";
import { getConfig } from "@/lib/bff/config";
import { exportLimit } from "@/lib/bff/running-limit";
import { NoQuery } from "@/lib/bff/params";
import { fleetApi } from "@/lib/bff/upstream";

// GET /api/locations/progress — how far the walk of the whole station catalog (all=1) has got, and whether it waits for the key's request budget
export const GET = withSession("GET /api/locations/progress", async ({ request, session, key }) => {
  parseQuery(request, NoQuery);
  // Reading the key's budget costs no upstream request.
  const budget = isCatalogLoading(key)
    ? {
        use: await fleetApi().budgetUse(session.credentials),
        windowMs: getConfig().upstream.windowMs,
        exportsRunning: exportLimit().runningForKey(key),
      }
    : undefined;
  return Response.json(catalogProgress(key, budget));
});
