import { route } from "@/lib/bff/operation-route";
import { catalogProgress } from "@/lib/bff/operations/catalog-progress";

export const GET = route(catalogProgress);
