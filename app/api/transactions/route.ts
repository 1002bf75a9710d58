import { route } from "@/lib/bff/http/route";
import { listTransactions } from "@/lib/bff/transactions/list-transactions";

export const GET = route(listTransactions);
