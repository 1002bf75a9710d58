import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = {
  title: "Stations",
};

// Placeholder until the stations list and map land (issue 6).
export default function StationsPage() {
  return <PageHeader title="Stations">Coming soon</PageHeader>;
}
