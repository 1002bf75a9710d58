import { route } from "@/lib/bff/operation-route";
import { stationPrices } from "@/lib/bff/operations/station-prices";

export const GET = route(stationPrices);
