import { route } from "@/lib/bff/operation-route";
import { exportJurisdictionReport } from "@/lib/bff/operations/jurisdiction-export";

export const GET = route(exportJurisdictionReport);
