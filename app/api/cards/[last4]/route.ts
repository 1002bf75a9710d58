import { route } from "@/lib/bff/operation-route";
import { cardDetail } from "@/lib/bff/operations/drilldown-details";

export const GET = route(cardDetail);
