import { route } from "@/lib/bff/operation-route";
import { listTransactions } from "@/lib/bff/operations/list-transactions";

export const GET = route(listTransactions);
