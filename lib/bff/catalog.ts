import "server-only";

import type { Credentials } from "@/lib/fleet-api";
import type { Station } from "@/lib/model";

import { cache, cacheKey } from "./cache";
import { trackCatalogWalk } from "./catalog-progress";
import { getConfig } from "./config";
import { fleetApi } from "./upstream";

const catalogKey = (key: string) => cacheKey(key, "locations", "all");

/**
 * The whole station catalog of one key, at bulk priority, cached for minutes per customer: ⌈stations/500⌉ upstream
 * calls per TTL. The walk reports each page to GET /api/locations/progress, so the map page can show how far it has got.
 */
export function getCatalog(credentials: Credentials, key: string): Promise<Station[]> {
  return cache().get<Station[]>(catalogKey(key), getConfig().cacheTtlMs.locations, async () => {
    const progress = trackCatalogWalk(key);
    try {
      const stations = await fleetApi().listAllLocations(
        credentials,
        {},
        {
          onProgress: (walk) => {
            progress.page(walk);
          },
        },
      );
      progress.finish("done");
      return stations;
    } catch (error) {
      progress.finish("failed");
      throw error;
    }
  });
}
