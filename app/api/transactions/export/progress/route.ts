import { withSession, parseQuery } from "@/lib/bff/handler";
import { BffError } from "@/lib/bff/errors";
import { exportProgress } from "@/lib/bff/export-progress";
import { ExportProgressQuery } from "@/lib/bff/params";

// GET /api/transactions/export/progress — rows done and expected of one of this session's exports (for the progress bar)
export const GET = withSession("GET /api/transactions/export/progress", ({ request, session }) => {
  const { exportId } = parseQuery(request, ExportProgressQuery);
  const progress = exportProgress(session.sid, exportId);
  if (!progress) throw new BffError("not_found", "No export with that id is running or recently finished.");
  return Promise.resolve(Response.json(progress));
});
