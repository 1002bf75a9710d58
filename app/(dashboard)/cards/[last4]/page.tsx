import type { Metadata } from "next";
import { Suspense } from "react";

import { DrilldownDetailPage } from "@/components/drilldowns/drilldown-detail";

export const metadata: Metadata = {
  title: "Card",
};

export default async function CardPage({ params }: { params: Promise<{ last4: string }> }) {
  const { last4 } = await params;
  return (
    <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-400">Loading…</p>}>
      <DrilldownDetailPage dimension="card" id={last4} />
    </Suspense>
  );
}
