import { route } from "@/lib/bff/operation-route";
import { transactionTotals } from "@/lib/bff/operations/transaction-totals";

export const GET = route(transactionTotals);
