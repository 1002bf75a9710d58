import { route } from "@/lib/bff/http/route";
import { getLocation } from "@/lib/bff/stations/get-location";

export const GET = route(getLocation);
