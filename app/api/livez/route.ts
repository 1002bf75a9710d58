import { publicRoute } from "@/lib/bff/operation-route";
import { getLiveness } from "@/lib/bff/operations/health";

export const GET = publicRoute(getLiveness);
