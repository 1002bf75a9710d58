import { route } from "@/lib/bff/operation-route";
import { getLocation } from "@/lib/bff/operations/get-location";

export const GET = route(getLocation);
