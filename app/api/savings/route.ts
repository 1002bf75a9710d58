// GET /api/savings — what the fleet could have saved against cheaper stations nearby (lib/bff/operations/savings).
import { refuseHead } from "@/lib/bff/handler";
import { route } from "@/lib/bff/operation-route";
import { getSavings } from "@/lib/bff/operations/savings";

export const GET = route(getSavings);
export const HEAD = refuseHead;
