import "server-only";

import type { StationPricesReply } from "@/lib/model";

import { sessionOperation } from "../http/operation";
import { StationPricesQuery } from "./params";
import { lookUpStationPrices } from "./station-details";

/**
 * GET /api/locations/prices — the detail prices (diesel, unleaded, DEF…) of up to 25 stations: cached ones free, the
 * others within the budget rule (lib/bff/stations/station-details).
 */
export const stationPrices = sessionOperation({
  route: "GET /api/locations/prices",
  input: { query: StationPricesQuery },
  csrf: "same-site",
  priority: "interactive",
  run: (ctx, { ids }): Promise<StationPricesReply> =>
    lookUpStationPrices(ctx.session.credentials, ctx.key, ids, ctx.signal),
});
