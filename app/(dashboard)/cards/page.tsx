import type { Metadata } from "next";
import { Suspense } from "react";

import { DrilldownListView } from "@/components/drilldowns/drilldown-list";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = {
  title: "Cards",
};

export default function CardsPage() {
  return (
    <>
      <PageHeader title="Cards">
        Spend, gallons, purchases, average price and DEF ratio per card over a quarter or any dates, with the change
        against the period before. Open one for its trend and stations.
      </PageHeader>
      {/* The period lives in the URL (useSearchParams), which only the browser knows for a static page. */}
      <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-400">Loading…</p>}>
        <DrilldownListView dimension="card" />
      </Suspense>
    </>
  );
}
