import type { Metadata } from "next";

import { DrilldownNotFound } from "@/components/drilldowns/drilldown-not-found";

export const metadata: Metadata = {
  title: "Driver not found",
};

// Rendered with HTTP 404 when the page's lookup finds no such driver (see page.tsx).
export default function DriverNotFound() {
  return <DrilldownNotFound dimension="driver" />;
}
