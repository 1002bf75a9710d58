import "server-only";

import type { Page, Station } from "@/lib/model";
import { filterStations } from "@/lib/model/station-filter";

import { packedJson } from "../http/compress";
import { cached, sessionOperation } from "../http/operation";
import { getConfig } from "../platform/config";
import { fleetApi } from "../platform/upstream";
import { getCatalog, mirrorToRecord } from "./catalog";
import { LocationListQuery } from "./params";

/**
 * GET /api/locations — one page, or all=1 for the whole catalog (for the map, gzip-packed with pack=gzip); query:
 * brand, state, search (the spec's filters, lib/model/station-filter).
 */
export const listLocations = sessionOperation({
  route: "GET /api/locations",
  input: { query: LocationListQuery },
  csrf: "same-site",
  priority: "interactive",
  // Shared with the other instances (Redis): a page of the catalog saves them the same upstream call.
  cache: { name: "locations", ttlMs: () => getConfig().cacheTtlMs.locations, shared: true },
  run: async (ctx, q): Promise<Page<Station> | Response> => {
    const filter = {
      ...(q.brand ? { brand: q.brand } : {}),
      ...(q.state ? { state: q.state } : {}),
      ...(q.search ? { search: q.search } : {}),
    };
    if (q.all) {
      // Only the unfiltered catalog is cached (one entry per customer); filters apply to it here, as the spec says.
      const items = filterStations(
        await getCatalog(ctx.session.credentials, ctx.key, await mirrorToRecord(ctx)),
        filter,
      );
      const body = { page: 1, limit: items.length, total: items.length, pages: 1, items } satisfies Page<Station>;
      // 650 kB of JSON at 2,500 stations, 13 MB at 50,000: the map page asks for it gzip-packed (see lib/bff/http/compress).
      return q.pack === "gzip" ? await packedJson(body) : body;
    }
    const query = { ...filter, page: q.page ?? 1, limit: q.limit ?? 100 };
    return cached(ctx, listLocations.cache, query, (signal) =>
      fleetApi().listLocations(ctx.session.credentials, query, { signal, priority: ctx.priority }),
    );
  },
});
