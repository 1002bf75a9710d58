import { getLiveness } from "@/lib/bff/health/health";
import { publicRoute } from "@/lib/bff/http/route";

export const GET = publicRoute(getLiveness);
