import type { Metadata } from "next";
import { Suspense } from "react";

import { StationsView } from "@/components/stations/stations-view";
import { PageHeader } from "@/components/ui/page-header";
import { getConfig } from "@/lib/bff/platform/config";
import { tileOriginFromEnv } from "@/lib/bff/platform/security-headers";

export const metadata: Metadata = {
  title: "Stations",
};

export default async function StationsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // Awaiting the request's query makes the page render per request, so TILE_URL is read at run time, not at build.
  await searchParams;
  const config = getConfig();
  // The map gets the tile template only when the CSP allows its origin (tileOriginFromEnv): otherwise every tile
  // would be blocked, and the map is better off with its own basemap from the start.
  const tileUrl = config.tileUrl !== undefined && tileOriginFromEnv(process.env) !== null ? config.tileUrl : null;
  return (
    <>
      <PageHeader title="Stations">
        Every station in the catalog with your latest price. Find cheap fuel near a point, by brand or state.
      </PageHeader>
      <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-400">Loading stations…</p>}>
        <StationsView tileUrl={tileUrl} tileAttribution={config.tileAttribution ?? null} />
      </Suspense>
    </>
  );
}
