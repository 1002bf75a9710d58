import { describe, expect, it } from "vitest";

import { lastCatalogWalkMs, readCatalog } from "@/lib/mirror";
import type { Page, Station } from "@/lib/model";
import { mirrorServeStackFor } from "@/test/mirror-serve-stack";

import { runWithQuery } from "../http/operation";
import { cache } from "../platform/cache";
import { listLocations } from "./list-locations";

// The map's catalog walk (GET /api/locations?all=1) records the catalog in the session's mirror (the price history of
// issue 16 item 4); a session without a mirror records nothing. Real sandbox, both profiles, a real mirror (SQLite).

describe.each(["primary", "alternative"] as const)("the catalog walk records price history (%s profile)", (profile) => {
  const stack = mirrorServeStackFor(profile);

  it("records the stations and their prices when the session has its mirror, nothing otherwise", async () => {
    const { access } = stack().mirror;
    // Without the mirror: the walk is served (and cached) but not recorded.
    const plain = (await runWithQuery(listLocations, stack().upstreamCtx(), { all: "1" })) as Page<Station>;
    expect(plain.items.length).toBeGreaterThan(100);
    expect(await lastCatalogWalkMs(access.store, access.customerId)).toBeNull();
    // With it (the cache emptied, so the walk happens again): every station and one price record per priced station.
    cache().forget("");
    const walked = (await runWithQuery(listLocations, stack().mirrorCtx(), { all: "1" })) as Page<Station>;
    const recorded = await readCatalog(access.store, access.customerId);
    expect(recorded.stations.map((s) => s.id).sort()).toEqual(walked.items.map((s) => s.id).sort());
    const priced = walked.items.filter((s) => s.price !== null);
    expect([...recorded.prices.values()].flat()).toHaveLength(priced.length);
  });
});
