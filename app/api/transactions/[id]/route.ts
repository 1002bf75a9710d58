import { route } from "@/lib/bff/operation-route";
import { getTransaction } from "@/lib/bff/operations/get-transaction";

export const GET = route(getTransaction);
