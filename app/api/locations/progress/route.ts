import { withSession, parseQuery } from "@/lib/bff/handler";
import { catalogProgress } from "@/lib/bff/catalog-progress";
import { NoQuery } from "@/lib/bff/params";

// GET /api/locations/progress — how far the walk of the whole station catalog (all=1) has got, for the map's progress bar
export const GET = withSession("GET /api/locations/progress", ({ request, key }) => {
  parseQuery(request, NoQuery);
  return Promise.resolve(Response.json(catalogProgress(key)));
});
