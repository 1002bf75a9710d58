import "server-only";

import type { StationProductsInfo } from "@/lib/model";

import { sessionOperation } from "../http/operation";
import { NoQuery } from "../http/query";
import { mirrorToRecord } from "./catalog";
import { learnStationProducts } from "./station-details";

/** GET /api/locations/products — which products the upstream's station detail prices, learned from one real reply. */
export const stationProducts = sessionOperation({
  route: "GET /api/locations/products",
  input: { query: NoQuery },
  csrf: "same-site",
  priority: "interactive",
  run: async (ctx, _input): Promise<StationProductsInfo> =>
    learnStationProducts(ctx.session.credentials, ctx.key, await mirrorToRecord(ctx)),
});
