import { route } from "@/lib/bff/http/route";
import { listLocations } from "@/lib/bff/stations/list-locations";

export const GET = route(listLocations);
