import { withSession, parseQuery } from "@/lib/bff/handler";
import { StationPricesQuery } from "@/lib/bff/params";
import { lookUpStationPrices } from "@/lib/bff/station-details";
import type { StationPricesReply } from "@/lib/model";

// GET /api/locations/prices — the detail prices (diesel, unleaded, DEF…) of up to 25 stations: cached ones free, the others within the budget rule
export const GET = withSession("GET /api/locations/prices", async ({ request, session, key }) => {
  const { ids } = parseQuery(request, StationPricesQuery);
  const reply = await lookUpStationPrices(session.credentials, key, ids, request.signal);
  return Response.json(reply satisfies StationPricesReply);
});
