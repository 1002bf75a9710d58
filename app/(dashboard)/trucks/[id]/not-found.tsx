import type { Metadata } from "next";

import { DrilldownNotFound } from "@/components/drilldowns/drilldown-not-found";

export const metadata: Metadata = {
  title: "Truck not found",
};

// Rendered with HTTP 404 when the page's lookup finds no such truck (see page.tsx).
export default function TruckNotFound() {
  return <DrilldownNotFound dimension="truck" />;
}
