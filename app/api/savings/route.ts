// GET /api/savings — what the fleet could have saved against cheaper stations nearby (lib/bff/insights/savings).
import { refuseHead, route } from "@/lib/bff/http/route";
import { getSavings } from "@/lib/bff/insights/savings";

export const GET = route(getSavings);
export const HEAD = refuseHead;
