import { refuseHead } from "@/lib/bff/handler";
import { route } from "@/lib/bff/operation-route";
import { exportTransactionsFile } from "@/lib/bff/operations/export-transactions";

export const GET = route(exportTransactionsFile);
export const HEAD = refuseHead;
