import "server-only";

import type { TransactionDetail } from "@/lib/model";

import { sessionOperation } from "../operation";
import { getTransactionDetail } from "../transaction-detail";

/** GET /api/transactions/[id] — one transaction in full (cached per key in lib/bff/transaction-detail). */
export const getTransaction = sessionOperation({
  route: "GET /api/transactions/[id]",
  input: { params: (params: { id: string }) => params.id },
  csrf: "same-site",
  reads: "transactions",
  priority: "interactive",
  run: (ctx, id): Promise<TransactionDetail> => getTransactionDetail(ctx.session, id, ctx.signal),
});
