// GET /api/exceptions — the exception rules over a period, from the mirror (lib/bff/operations/exceptions.ts).
import { refuseHead } from "@/lib/bff/handler";
import { route } from "@/lib/bff/operation-route";
import { exceptionsOperation } from "@/lib/bff/operations/exceptions";

export const GET = route(exceptionsOperation);
export const HEAD = refuseHead;
