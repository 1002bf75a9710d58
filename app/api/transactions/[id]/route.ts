import { route } from "@/lib/bff/http/route";
import { getTransaction } from "@/lib/bff/transactions/get-transaction";

export const GET = route(getTransaction);
