import { route } from "@/lib/bff/operation-route";
import { listLocations } from "@/lib/bff/operations/list-locations";

export const GET = route(listLocations);
