import type { Metadata } from "next";
import { Suspense } from "react";

import { DrilldownDetailPage } from "@/components/drilldowns/drilldown-detail";
import { drilldownPageKey, drilldownPageTitle } from "@/lib/bff/insights/drilldown-page";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: await drilldownPageTitle("driver", (await params).id) };
}

export default async function DriverPage({ params }: Props) {
  const { id } = await params;
  // A malformed or unknown key is a real HTTP 404 (lib/bff/insights/drilldown-page.ts), not a 200 page of zeros; a known one
  // gives the header its name and detail from the first paint.
  const known = await drilldownPageKey("driver", id);
  return (
    <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-400">Loading…</p>}>
      <DrilldownDetailPage dimension="driver" id={id} known={known ?? null} />
    </Suspense>
  );
}
