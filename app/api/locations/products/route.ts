import { route } from "@/lib/bff/http/route";
import { stationProducts } from "@/lib/bff/stations/station-products";

export const GET = route(stationProducts);
