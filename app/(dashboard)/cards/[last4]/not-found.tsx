import type { Metadata } from "next";

import { DrilldownNotFound } from "@/components/drilldowns/drilldown-not-found";

export const metadata: Metadata = {
  title: "Card not found",
};

// Rendered with HTTP 404 when the page's lookup finds no such card (see page.tsx).
export default function CardNotFound() {
  return <DrilldownNotFound dimension="card" />;
}
