import "server-only";

import type { DrilldownListReply } from "@/lib/model/insight-drilldowns";

import { sessionOperation } from "../http/operation";
import { drilldownList, DrilldownRangeQuery } from "./drilldown-service";

/**
 * GET /api/drivers, /api/trucks, /api/cards — every driver, truck or card last four with purchases on the range's
 * local dates (a quarter, or from–to; default the last 30 days), ranked by spend, each with its previous period. From
 * the mirror only (409 with a sentence without it); the reply's coverage says which days the figures cover.
 */
const listOf = (dimension: "driver" | "truck" | "card", route: string) =>
  sessionOperation({
    route,
    input: { query: DrilldownRangeQuery },
    csrf: "same-site",
    reads: "transactions",
    priority: "interactive",
    run: (ctx, q): Promise<DrilldownListReply> => drilldownList(ctx, dimension, q),
  });

export const listDrivers = listOf("driver", "GET /api/drivers");
export const listTrucks = listOf("truck", "GET /api/trucks");
export const listCards = listOf("card", "GET /api/cards");
