import type { Metadata } from "next";
import { Suspense } from "react";

import { StationInsights } from "@/components/drilldowns/station-insights-lazy";
import { StationDetailView } from "@/components/stations/detail/station-detail";
import { notFoundUnlessFound } from "@/lib/bff/http/page-lookup";
import { checkId } from "@/lib/bff/http/query";
import { getStationDetail } from "@/lib/bff/stations/station-details";

export const metadata: Metadata = {
  title: "Station",
};

export default async function StationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // An unknown station is HTTP 404 (the not-found page), decided before the page streams.
  await notFoundUnlessFound((session, key) => getStationDetail(session.credentials, key, checkId(id, "station")));
  return (
    <>
      <StationDetailView id={id} />
      {/* The insights' period lives in the URL (useSearchParams). */}
      <Suspense fallback={null}>
        <StationInsights id={id} />
      </Suspense>
    </>
  );
}
