import { publicRoute } from "@/lib/bff/operation-route";
import { setClock } from "@/lib/bff/operations/set-clock";

export const POST = publicRoute(setClock);
