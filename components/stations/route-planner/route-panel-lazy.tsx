"use client";

import dynamic from "next/dynamic";

/**
 * The route planner's panel and results (its forms, plan and ranked tables) as lazy chunks: they load with the Route
 * mode, not with /stations, which opens on "cheapest near here" (issue 26: ≤ 200 kB of JavaScript per page). A link to
 * the Route mode renders them on the server, so its first paint has them.
 */
export const RoutePanel = dynamic(() => import("./route-panel").then((m) => m.RoutePanel), {
  loading: () => (
    <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
      Loading the route planner…
    </p>
  ),
});

export const RouteResults = dynamic(() => import("./route-panel").then((m) => m.RouteResults));
