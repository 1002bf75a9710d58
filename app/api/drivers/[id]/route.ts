import { route } from "@/lib/bff/operation-route";
import { driverDetail } from "@/lib/bff/operations/drilldown-details";

export const GET = route(driverDetail);
