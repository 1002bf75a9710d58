import "server-only";

import type { DrilldownDetailReply, DrilldownDimension } from "@/lib/model/insight-drilldowns";

import { sessionOperation } from "../http/operation";
import { detailInput, drilldownDetail } from "./drilldown-service";

/**
 * GET /api/drivers/[id], /api/trucks/[id], /api/cards/[last4], /api/locations/[id]/insights — one key's totals, its
 * trend per local day (per week past 62 days), its stations (or a station's drivers) and the previous period's totals.
 * A malformed key is a 400, a key without any purchase in the mirror a 404, both with a sentence.
 */
const detailOf = (dimension: DrilldownDimension, name: "id" | "last4", route: string) =>
  sessionOperation({
    route,
    input: { params: detailInput(dimension, name) },
    csrf: "same-site",
    reads: "transactions",
    priority: "interactive",
    run: (ctx, input): Promise<DrilldownDetailReply> => drilldownDetail(ctx, dimension, input),
  });

export const driverDetail = detailOf("driver", "id", "GET /api/drivers/[id]");
export const truckDetail = detailOf("truck", "id", "GET /api/trucks/[id]");
export const cardDetail = detailOf("card", "last4", "GET /api/cards/[last4]");
export const stationInsights = detailOf("station", "id", "GET /api/locations/[id]/insights");
