import "server-only";

import type { Credentials } from "@/lib/fleet-api";
import { recordCatalogWalk } from "@/lib/mirror";
import type { Station } from "@/lib/model";

import { BffError } from "../http/errors";
import { cache, cacheKey } from "../platform/cache";
import { now } from "../platform/clock";
import { getConfig } from "../platform/config";
import { logger } from "../platform/log";
import type { MirrorAccess } from "../platform/mirror-access";
import { fleetApi } from "../platform/upstream";
import { trackCatalogWalk } from "./walk-progress";

const catalogKey = (key: string) => cacheKey(key, "locations", "all");

/**
 * The whole station catalog of one key, at bulk priority, cached for minutes per customer: ⌈stations/500⌉ upstream
 * calls per TTL. The walk reports each page to GET /api/locations/progress, so the map page can show how far it has got.
 * With the customer's mirror (`mirror`; every caller passes its session's, or null without one), each walk is recorded in it: the stations and every changed price (the price
 * history the savings compare against, lib/mirror/catalog). A failed recording is logged and the catalog served anyway.
 */
export function getCatalog(credentials: Credentials, key: string, mirror: MirrorAccess | null): Promise<Station[]> {
  return cache().get<Station[]>(
    catalogKey(key),
    getConfig().cacheTtlMs.locations,
    () => walkCatalog(credentials, key, mirror),
    undefined,
    // Shared with the other instances (Redis): the catalog is the costliest walk a key makes.
    { shared: true },
  );
}

async function walkCatalog(credentials: Credentials, key: string, mirror: MirrorAccess | null): Promise<Station[]> {
  const progress = trackCatalogWalk(key);
  let stations: Station[];
  try {
    stations = await fleetApi().listAllLocations(
      credentials,
      {},
      {
        onProgress: (walk) => {
          progress.page(walk);
        },
      },
    );
    progress.finish("done");
  } catch (error) {
    progress.finish("failed");
    throw error;
  }
  if (mirror) await recordWalk(mirror, stations);
  return stations;
}

/**
 * The session's mirror for a catalog reader that only records into it (the map, the products probe): the mirror's
 * database not answering (a 503 from the gate) must not take the map down — the catalog is served, unrecorded.
 */
export async function mirrorToRecord(ctx: {
  mirror: () => Promise<MirrorAccess | null>;
}): Promise<MirrorAccess | null> {
  try {
    return await ctx.mirror();
  } catch (error) {
    if (!(error instanceof BffError) || error.code !== "shared_state_unavailable") throw error;
    logger().warn({ err: error.message }, "the mirror is not answering: the catalog is served without recording it");
    return null;
  }
}

/** Records a walk's stations and changed prices in the customer's mirror; never fails the catalog's reader. */
export async function recordWalk(mirror: MirrorAccess, stations: readonly Station[]): Promise<void> {
  try {
    await recordCatalogWalk(mirror.store, mirror.customerId, stations, now());
    // The walk marked the fills whose comparisons it may change: computed in the background.
    mirror.comparePending();
  } catch (error) {
    logger().warn(
      { err: error instanceof Error ? error.message : String(error) },
      "recording the catalog in the mirror failed",
    );
  }
}
