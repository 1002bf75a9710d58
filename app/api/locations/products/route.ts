import { route } from "@/lib/bff/operation-route";
import { stationProducts } from "@/lib/bff/operations/station-products";

export const GET = route(stationProducts);
