import type { Metadata } from "next";
import { Suspense } from "react";

import { JurisdictionReport } from "@/components/reports/jurisdiction-report";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = {
  title: "Fuel by jurisdiction",
};

export default function JurisdictionsPage() {
  return (
    <>
      <PageHeader title="Fuel by jurisdiction">
        Fuel bought per state and fuel for a quarter or any range, for your IFTA fuel records.
      </PageHeader>
      {/* The range is in the URL (useSearchParams), which only the browser knows for a static page. */}
      <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-400">Loading the report…</p>}>
        <JurisdictionReport />
      </Suspense>
    </>
  );
}
