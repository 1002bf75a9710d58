import type { Metadata } from "next";
import { Suspense } from "react";

import { DrilldownDetailPage } from "@/components/drilldowns/drilldown-detail";

export const metadata: Metadata = {
  title: "Driver",
};

export default async function DriverPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-400">Loading…</p>}>
      <DrilldownDetailPage dimension="driver" id={id} />
    </Suspense>
  );
}
