import { route } from "@/lib/bff/operation-route";
import { getAccount } from "@/lib/bff/operations/get-account";

export const GET = route(getAccount);
