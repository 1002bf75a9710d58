import type { Metadata } from "next";
import { Suspense } from "react";

import { DrilldownDetailPage } from "@/components/drilldowns/drilldown-detail";
import { drilldownPageKey, drilldownPageTitle } from "@/lib/bff/insights/drilldown-page";

type Props = { params: Promise<{ last4: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: await drilldownPageTitle("card", (await params).last4) };
}

export default async function CardPage({ params }: Props) {
  const { last4 } = await params;
  // A malformed or unknown key is a real HTTP 404 (lib/bff/insights/drilldown-page.ts), not a 200 page of zeros; a known one
  // gives the header its name and detail from the first paint.
  const known = await drilldownPageKey("card", last4);
  return (
    <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-400">Loading…</p>}>
      <DrilldownDetailPage dimension="card" id={last4} known={known ?? null} />
    </Suspense>
  );
}
