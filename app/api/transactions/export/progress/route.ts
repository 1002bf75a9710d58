import { withSession, parseQuery } from "@/lib/bff/handler";
import { getConfig } from "@/lib/bff/config";
import { BffError } from "@/lib/bff/errors";
import { exportProgress } from "@/lib/bff/export-progress";
import { ExportProgressQuery } from "@/lib/bff/params";
import { fleetApi } from "@/lib/bff/upstream";
import { TRANSACTIONS_PAGE_MAX } from "@/lib/fleet-api";
import type { ExportProgress } from "@/lib/model";

// GET /api/transactions/export/progress — rows done and expected of one of this session's exports, and the request budget that bounds its speed
export const GET = withSession("GET /api/transactions/export/progress", async ({ request, session }) => {
  const { exportId } = parseQuery(request, ExportProgressQuery);
  const progress = exportProgress(session.sid, exportId);
  if (!progress) throw new BffError("not_found", "No export with that id is running or recently finished.");
  // Reading the key's window costs no upstream request.
  const use = await fleetApi().budgetUse(session.credentials);
  const reply: ExportProgress = {
    ...progress,
    rate: {
      rowsPerRequest: TRANSACTIONS_PAGE_MAX,
      requestsPerWindow: use.budget,
      windowSeconds: getConfig().upstream.windowMs / 1000,
      sentInWindow: use.sent,
      pausedForSeconds: Math.ceil(use.pausedForMs / 1000),
    },
  };
  return Response.json(reply);
});
