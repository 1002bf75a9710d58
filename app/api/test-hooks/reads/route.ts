import { publicRoute } from "@/lib/bff/http/route";
import { holdReadsHook } from "@/lib/bff/test-hooks/hold-reads";

export const POST = publicRoute(holdReadsHook);
