"use client";

import dynamic from "next/dynamic";

/**
 * A station's insights ("Your fleet at this station": figures, chart, breakdown table, savings) as a lazy chunk under
 * the station's own detail: the table library and the chart load after the detail, keeping /stations/[id] within
 * 200 kB of JavaScript before it is interactive (issue 26). Rendered on the server all the same, so the first paint
 * has them and nothing shifts.
 */
export const StationInsights = dynamic(() => import("./drilldown-detail").then((m) => m.StationInsights));
