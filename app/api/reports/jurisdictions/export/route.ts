import { refuseHead } from "@/lib/bff/handler";
import { route } from "@/lib/bff/operation-route";
import { exportJurisdictionReport } from "@/lib/bff/operations/jurisdiction-export";

export const GET = route(exportJurisdictionReport);
// A HEAD must not run the export (Next would answer it with GET): 405, as every export route does.
export const HEAD = refuseHead;
