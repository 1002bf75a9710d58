import { route } from "@/lib/bff/http/route";
import { truckDetail } from "@/lib/bff/insights/drilldown-details";

export const GET = route(truckDetail);
