import { refuseHead, route } from "@/lib/bff/http/route";
import { exportJurisdictionReport } from "@/lib/bff/insights/jurisdiction-export";

export const GET = route(exportJurisdictionReport);
// A HEAD must not run the export (Next would answer it with GET): 405, as every export route does.
export const HEAD = refuseHead;
