import { withSession, parseQuery } from "@/lib/bff/handler";
import { NoQuery } from "@/lib/bff/params";
import { learnStationProducts } from "@/lib/bff/station-details";
import type { StationProductsInfo } from "@/lib/model";

// GET /api/locations/products — which products the upstream's station detail prices, learned from one real detail reply
export const GET = withSession("GET /api/locations/products", async ({ request, session, key }) => {
  parseQuery(request, NoQuery);
  const info = await learnStationProducts(session.credentials, key);
  return Response.json(info satisfies StationProductsInfo);
});
