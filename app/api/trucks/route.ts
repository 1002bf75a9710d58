import { route } from "@/lib/bff/operation-route";
import { listTrucks } from "@/lib/bff/operations/drilldown-lists";

export const GET = route(listTrucks);
