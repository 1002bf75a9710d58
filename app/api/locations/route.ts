import { withSession, parseQuery } from "@/lib/bff/handler";
import { cache } from "@/lib/bff/cache";
import { getConfig } from "@/lib/bff/config";
import { LocationListQuery } from "@/lib/bff/params";
import { fleetApi } from "@/lib/bff/upstream";
import type { Page, Station } from "@/lib/model";

// GET /api/locations — one page, or all=1 for the whole catalog (for the map); query: brand, state, search
export const GET = withSession("GET /api/locations", async ({ request, session, key }) => {
  const q = parseQuery(request, LocationListQuery);
  const filter = { ...(q.brand ? { brand: q.brand } : {}), ...(q.state ? { state: q.state } : {}), ...(q.search ? { search: q.search } : {}) };
  const ttl = getConfig().cacheTtlMs.locations;
  if (q.all) {
    // The whole catalog at bulk priority, cached for minutes: ⌈stations/500⌉ upstream calls per TTL.
    const items = await cache().get<Station[]>(`${key}:locations:all:${JSON.stringify(filter)}`, ttl, () => fleetApi().listAllLocations(session.credentials, filter));
    return Response.json({ page: 1, limit: items.length, total: items.length, pages: 1, items } satisfies Page<Station>);
  }
  const query = { ...filter, page: q.page ?? 1, limit: q.limit ?? 100 };
  const page = await cache().get<Page<Station>>(`${key}:locations:${JSON.stringify(query)}`, ttl, () => fleetApi().listLocations(session.credentials, query));
  return Response.json(page);
});
