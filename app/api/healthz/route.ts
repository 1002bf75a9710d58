import { publicRoute } from "@/lib/bff/operation-route";
import { getHealth } from "@/lib/bff/operations/health";

export const GET = publicRoute(getHealth);
