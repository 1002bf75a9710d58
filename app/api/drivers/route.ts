import { route } from "@/lib/bff/operation-route";
import { listDrivers } from "@/lib/bff/operations/drilldown-lists";

export const GET = route(listDrivers);
