import { route } from "@/lib/bff/http/route";
import { listTrucks } from "@/lib/bff/insights/drilldown-lists";

export const GET = route(listTrucks);
