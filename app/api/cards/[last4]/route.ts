import { route } from "@/lib/bff/http/route";
import { cardDetail } from "@/lib/bff/insights/drilldown-details";

export const GET = route(cardDetail);
