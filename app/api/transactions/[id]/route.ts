import { withSession } from "@/lib/bff/handler";
import { getTransactionDetail } from "@/lib/bff/transaction-detail";

// GET /api/transactions/[id] — one transaction in full
export const GET = withSession<{ id: string }>("GET /api/transactions/[id]", async ({ request, session, params }) => {
  const detail = await getTransactionDetail(session, params.id, request.signal);
  return Response.json(detail);
});
