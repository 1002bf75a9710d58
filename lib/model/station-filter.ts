import type { Station } from "./station";

/**
 * The spec's station filters, zod-free so the map page and the BFF apply the same rule: brand (chain code) and state
 * exact, search a case-insensitive substring of name, city or loc_num. An absent filter (undefined, null or an empty
 * search) matches every station.
 */
export interface StationFilterValues {
  brand?: string | null | undefined;
  state?: string | null | undefined;
  search?: string | null | undefined;
}

export function matchesStation(station: Station, filter: StationFilterValues): boolean {
  if (filter.brand != null && station.brand !== filter.brand) return false;
  if (filter.state != null && station.state !== filter.state) return false;
  const needle = filter.search?.toLowerCase() ?? "";
  if (needle === "") return true;
  return [station.name, station.city, station.locNum].some((v) => v.toLowerCase().includes(needle));
}

/** The stations the filter keeps; the same array when no filter is set (the map redraws nothing then). */
export function filterStations<T extends Station>(stations: readonly T[], filter: StationFilterValues): T[] {
  if (filter.brand == null && filter.state == null && (filter.search ?? "") === "") return stations as T[];
  return stations.filter((s) => matchesStation(s, filter));
}
