import { withSession } from "@/lib/bff/handler";
import { checkId } from "@/lib/bff/params";
import { getStationDetail } from "@/lib/bff/station-details";

// GET /api/locations/[id] — one station in full
export const GET = withSession<{ id: string }>("GET /api/locations/[id]", async ({ request, session, key, params }) => {
  const id = checkId(params.id, "station");
  const { station } = await getStationDetail(session.credentials, key, id, request.signal);
  return Response.json(station);
});
