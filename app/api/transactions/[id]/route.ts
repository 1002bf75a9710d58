import { withSession } from "@/lib/bff/handler";
import { cache } from "@/lib/bff/cache";
import { getConfig } from "@/lib/bff/config";
import { checkId } from "@/lib/bff/params";
import { fleetApi } from "@/lib/bff/upstream";
import type { TransactionDetail } from "@/lib/model";

// GET /api/transactions/[id] — one transaction in full
export const GET = withSession<{ id: string }>("GET /api/transactions/[id]", async ({ request, session, key, params }) => {
  const id = checkId(params.id, "transaction");
  const detail = await cache().get<TransactionDetail>(`${key}:transaction:${id}`, getConfig().cacheTtlMs.transactions, (signal) => fleetApi().getTransaction(session.credentials, id, { signal }), request.signal);
  return Response.json(detail);
});
