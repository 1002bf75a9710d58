import type { Metadata } from "next";
import { StationDetailView } from "@/components/stations/station-detail";

export const metadata: Metadata = {
  title: "Station",
};

export default async function StationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <StationDetailView id={id} />;
}
