import { route } from "@/lib/bff/operation-route";
import { truckDetail } from "@/lib/bff/operations/drilldown-details";

export const GET = route(truckDetail);
