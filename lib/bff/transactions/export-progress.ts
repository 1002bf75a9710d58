import "server-only";

import { TRANSACTIONS_PAGE_MAX } from "@/lib/fleet-api";
import type { ExportProgress } from "@/lib/model";

import { exportProgress as progressOf } from "../files/export-progress";
import { BffError } from "../http/errors";
import { sessionOperation } from "../http/operation";
import { getConfig } from "../platform/config";
import { fleetApi } from "../platform/upstream";
import { ExportProgressQuery } from "./params";

/**
 * GET /api/transactions/export/progress — rows done and expected of one of this session's exports, and the request
 * budget that bounds its speed.
 */
export const exportProgress = sessionOperation({
  route: "GET /api/transactions/export/progress",
  input: { query: ExportProgressQuery },
  csrf: "same-site",
  reads: "transactions",
  // A poll of the in-memory progress of the session's exports: it reads no rows, and must answer while they run.
  readSlot: "exempt",
  priority: "interactive",
  run: async (ctx, { exportId }): Promise<ExportProgress> => {
    const progress = progressOf(ctx.session.sid, exportId);
    if (!progress) throw new BffError("not_found", "No export with that id is running or recently finished.");
    // Reading the key's window costs no upstream request.
    const use = await fleetApi().budgetUse(ctx.session.credentials);
    return {
      ...progress,
      rate: {
        rowsPerRequest: TRANSACTIONS_PAGE_MAX,
        requestsPerWindow: use.budget,
        windowSeconds: getConfig().upstream.windowMs / 1000,
        sentInWindow: use.sent,
        pausedForSeconds: Math.ceil(use.pausedForMs / 1000),
      },
    };
  },
});
