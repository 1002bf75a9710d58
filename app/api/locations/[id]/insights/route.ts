import { route } from "@/lib/bff/http/route";
import { stationInsights } from "@/lib/bff/insights/drilldown-details";

export const GET = route(stationInsights);
