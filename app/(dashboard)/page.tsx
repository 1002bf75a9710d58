import type { Metadata } from "next";

import { Overview } from "@/components/overview/overview";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = {
  title: "Overview",
};

export default function OverviewPage() {
  return (
    <>
      <PageHeader title="Overview">Your account and the fleet&apos;s fuel over the last 30 days.</PageHeader>
      <Overview />
    </>
  );
}
