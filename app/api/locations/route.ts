import { withSession, parseQuery } from "@/lib/bff/handler";
import { cache } from "@/lib/bff/cache";
import { getCatalog } from "@/lib/bff/catalog";
import { packedJson } from "@/lib/bff/compress";
import { getConfig } from "@/lib/bff/config";
import { LocationListQuery } from "@/lib/bff/params";
import { fleetApi } from "@/lib/bff/upstream";
import type { Page, Station, StationFilter } from "@/lib/model";

/** The spec's filters: brand (chain code), state, search (case-insensitive substring of name, city or loc_num). */
function matchesStation(s: Station, f: StationFilter): boolean {
  if (f.brand !== undefined && s.brand !== f.brand) return false;
  if (f.state !== undefined && s.state !== f.state) return false;
  if (f.search !== undefined) {
    const needle = f.search.toLowerCase();
    if (![s.name, s.city, s.locNum].some((v) => v.toLowerCase().includes(needle))) return false;
  }
  return true;
}

// GET /api/locations — one page, or all=1 for the whole catalog (for the map); query: brand, state, search
export const GET = withSession("GET /api/locations", async ({ request, session, key }) => {
  const q = parseQuery(request, LocationListQuery);
  const filter = {
    ...(q.brand ? { brand: q.brand } : {}),
    ...(q.state ? { state: q.state } : {}),
    ...(q.search ? { search: q.search } : {}),
  };
  const ttl = getConfig().cacheTtlMs.locations;
  if (q.all) {
    // Only the unfiltered catalog is cached (one entry per customer); filters apply to it here, as the spec says.
    const catalog = await getCatalog(session.credentials, key);
    const items = catalog.filter((s) => matchesStation(s, filter));
    const body = { page: 1, limit: items.length, total: items.length, pages: 1, items } satisfies Page<Station>;
    // 650 kB of JSON at 2,500 stations, 13 MB at 50,000: the map page asks for it gzip-packed (see lib/bff/compress).
    return q.pack === "gzip" ? packedJson(body) : Response.json(body);
  }
  const query = { ...filter, page: q.page ?? 1, limit: q.limit ?? 100 };
  const page = await cache().get<Page<Station>>(
    `${key}:locations:${JSON.stringify(query)}`,
    ttl,
    (signal) => fleetApi().listLocations(session.credentials, query, { signal }),
    request.signal,
  );
  return Response.json(page);
});
