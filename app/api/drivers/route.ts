import { route } from "@/lib/bff/http/route";
import { listDrivers } from "@/lib/bff/insights/drilldown-lists";

export const GET = route(listDrivers);
