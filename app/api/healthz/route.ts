import { getHealth } from "@/lib/bff/health/health";
import { publicRoute } from "@/lib/bff/http/route";

export const GET = publicRoute(getHealth);
