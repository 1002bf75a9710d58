// GET /api/exceptions — the exception rules over a period, from the mirror (lib/bff/insights/exceptions.ts).
import { refuseHead, route } from "@/lib/bff/http/route";
import { exceptionsOperation } from "@/lib/bff/insights/exceptions";

export const GET = route(exceptionsOperation);
export const HEAD = refuseHead;
