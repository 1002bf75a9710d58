import { publicRoute } from "@/lib/bff/operation-route";
import { holdReadsHook } from "@/lib/bff/operations/hold-reads";

export const POST = publicRoute(holdReadsHook);
