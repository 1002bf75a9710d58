import "server-only";

import type { StationDetail } from "@/lib/model";

import { sessionOperation } from "../http/operation";
import { checkId } from "../http/query";
import { getStationDetail } from "./station-details";

/** GET /api/locations/[id] — one station in full (cached per key in lib/bff/stations/station-details). */
export const getLocation = sessionOperation({
  route: "GET /api/locations/[id]",
  input: { params: (params: { id: string }) => checkId(params.id, "station") },
  csrf: "same-site",
  priority: "interactive",
  run: async (ctx, id): Promise<StationDetail> =>
    (await getStationDetail(ctx.session.credentials, ctx.key, id, ctx.signal)).station,
});
