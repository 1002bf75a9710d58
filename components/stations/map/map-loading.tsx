import { Skeleton } from "@/components/ui/skeleton";

/** The map's place while Leaflet's chunk loads and until the map is created (station-map.tsx, map-inner.tsx). */
export function MapLoading() {
  return (
    <div aria-busy="true" className="h-full w-full">
      <p className="sr-only">Loading the map…</p>
      <Skeleton className="h-full w-full rounded-xl" />
    </div>
  );
}
