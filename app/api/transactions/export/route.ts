import { refuseHead, route } from "@/lib/bff/http/route";
import { exportTransactionsFile } from "@/lib/bff/transactions/export-transactions";

export const GET = route(exportTransactionsFile);
export const HEAD = refuseHead;
