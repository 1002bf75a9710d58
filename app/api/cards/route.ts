import { route } from "@/lib/bff/operation-route";
import { listCards } from "@/lib/bff/operations/drilldown-lists";

export const GET = route(listCards);
