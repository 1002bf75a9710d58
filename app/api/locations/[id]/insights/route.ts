import { route } from "@/lib/bff/operation-route";
import { stationInsights } from "@/lib/bff/operations/drilldown-details";

export const GET = route(stationInsights);
