import { route } from "@/lib/bff/http/route";
import { stationPrices } from "@/lib/bff/stations/station-prices";

export const GET = route(stationPrices);
