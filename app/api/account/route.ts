import { route } from "@/lib/bff/http/route";
import { getAccount } from "@/lib/bff/session/get-account";

export const GET = route(getAccount);
