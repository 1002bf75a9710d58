import "server-only";

import type { TransactionDetail } from "@/lib/model";

import { sessionOperation } from "../http/operation";
import { getTransactionDetail } from "./transaction-detail";

/** GET /api/transactions/[id] — one transaction in full (cached per key in lib/bff/transactions/transaction-detail). */
export const getTransaction = sessionOperation({
  route: "GET /api/transactions/[id]",
  input: { params: (params: { id: string }) => params.id },
  csrf: "same-site",
  reads: "transactions",
  // One transaction by id: cheap, and the detail drawer opens beside the reports that are loading.
  readSlot: "exempt",
  priority: "interactive",
  run: (ctx, id): Promise<TransactionDetail> => getTransactionDetail(ctx.session, id, ctx.signal),
});
