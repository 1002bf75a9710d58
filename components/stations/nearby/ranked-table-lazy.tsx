"use client";

import dynamic from "next/dynamic";

import { CardSkeleton } from "@/components/ui/query-states";

/**
 * The ranked table (and the table library under it) as a lazy chunk: it loads once a point is chosen, not with
 * /stations (issue 26: ≤ 200 kB of JavaScript per page); a link with a point renders it on the server.
 */
export const RankedTable = dynamic(() => import("./ranked-table").then((m) => m.RankedTable), {
  loading: () => <CardSkeleton label="Loading the ranking…" rows={5} className="h-6" />,
});
