import { route } from "@/lib/bff/operation-route";
import { getJurisdictionReport } from "@/lib/bff/operations/jurisdiction-report";

export const GET = route(getJurisdictionReport);
