import { publicRoute } from "@/lib/bff/http/route";
import { setClock } from "@/lib/bff/test-hooks/set-clock";

export const POST = publicRoute(setClock);
