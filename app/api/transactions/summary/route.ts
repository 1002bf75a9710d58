import { refuseHead } from "@/lib/bff/handler";
import { route } from "@/lib/bff/operation-route";
import { transactionSummary } from "@/lib/bff/operations/transaction-summary";

export const GET = route(transactionSummary);
export const HEAD = refuseHead;
