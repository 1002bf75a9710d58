import { route } from "@/lib/bff/http/route";
import { transactionTotals } from "@/lib/bff/transactions/transaction-totals";

export const GET = route(transactionTotals);
