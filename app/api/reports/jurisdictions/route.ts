import { route } from "@/lib/bff/http/route";
import { getJurisdictionReport } from "@/lib/bff/insights/jurisdiction-report";

export const GET = route(getJurisdictionReport);
