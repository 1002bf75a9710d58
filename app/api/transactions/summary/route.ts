import { refuseHead, route } from "@/lib/bff/http/route";
import { transactionSummary } from "@/lib/bff/transactions/transaction-summary";

export const GET = route(transactionSummary);
export const HEAD = refuseHead;
