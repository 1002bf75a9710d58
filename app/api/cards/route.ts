import { route } from "@/lib/bff/http/route";
import { listCards } from "@/lib/bff/insights/drilldown-lists";

export const GET = route(listCards);
