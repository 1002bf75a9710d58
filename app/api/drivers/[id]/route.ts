import { route } from "@/lib/bff/http/route";
import { driverDetail } from "@/lib/bff/insights/drilldown-details";

export const GET = route(driverDetail);
