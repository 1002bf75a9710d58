import { withSession } from "@/lib/bff/handler";
import { cache } from "@/lib/bff/cache";
import { getConfig } from "@/lib/bff/config";
import { checkId } from "@/lib/bff/params";
import { fleetApi } from "@/lib/bff/upstream";
import type { StationDetail } from "@/lib/model";

// GET /api/locations/[id] — one station in full
export const GET = withSession<{ id: string }>("GET /api/locations/[id]", async ({ request, session, key, params }) => {
  const id = checkId(params.id, "station");
  const station = await cache().get<StationDetail>(`${key}:location:${id}`, getConfig().cacheTtlMs.locations, () => fleetApi().getLocation(session.credentials, id, { signal: request.signal }));
  return Response.json(station);
});
