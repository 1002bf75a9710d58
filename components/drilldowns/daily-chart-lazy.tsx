"use client";

import dynamic from "next/dynamic";

import { ChartSkeleton } from "./drilldown-detail-loading";

/**
 * The overview's chart as a lazy chunk on the drill-down pages: it draws once the figures have come (never on the
 * server), so it loads then, in the place ChartSkeleton holds for it (issue 26: JavaScript per page, no shift).
 */
export const DailyChart = dynamic(() => import("@/components/overview/daily-chart").then((m) => m.DailyChart), {
  loading: () => <ChartSkeleton />,
});
