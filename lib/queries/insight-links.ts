/**
 * Where a driver, truck, card or station has its own page (issue 16's drill-downs): one writer of those addresses,
 * so every name on every page links the same way.
 */
export type EntityKind = "driver" | "truck" | "card" | "station";

const BASE: Readonly<Record<EntityKind, string>> = {
  driver: "/drivers",
  truck: "/trucks",
  card: "/cards",
  station: "/stations",
};

/** The page of one driver (by id), truck (by id), card (by last four) or station (by id). */
export function entityHref(kind: EntityKind, id: string): string {
  return `${BASE[kind]}/${encodeURIComponent(id)}`;
}
