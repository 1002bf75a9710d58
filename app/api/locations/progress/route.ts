import { route } from "@/lib/bff/http/route";
import { catalogProgress } from "@/lib/bff/stations/catalog-progress";

export const GET = route(catalogProgress);
