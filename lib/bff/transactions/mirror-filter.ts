import "server-only";

import { countsByStatus, type InstantRange, type MirrorFilter, scanWindowOf } from "@/lib/mirror";
import { UTC_ZONE, zonedDaysToInstants } from "@/lib/model/time-zones";

import type { MirrorAccess } from "../platform/mirror-access";
import type { MirrorFilterQuery } from "./mirror-params";
import type { ListFilterQuery } from "./params";
import { isReferenceLike } from "./reference-search";

/**
 * The list's query (lib/bff/http/query) as the mirror's filter (lib/mirror/filter), with the upstream's semantics so
 * both sources answer the same rows: `from`/`to` are days of `tz` (UTC days without it), both ends inclusive, as
 * exact instants; `search` matches the station name, driver name or card last four (the upstream's fields), and a
 * term shaped like a reference first looks for that reference among the other filters' rows (the BFF's reference
 * lookup, lib/bff/transactions/reference-search), the upstream's own search only when no row has it.
 */

export type ServeQuery = ListFilterQuery & MirrorFilterQuery;

/**
 * The zone's days as instants, [fromMs, toMs): the last millisecond of `to` included. With `dates=local` the days
 * are each purchase's own local date: the instants that can hold them (the filter's `localDays` keeps the exact ones).
 */
export function instantRangeOf(q: Pick<ServeQuery, "from" | "to" | "tz" | "dates">): InstantRange {
  if (q.dates === "local") return scanWindowOf({ from: q.from, to: q.to });
  const instants = zonedDaysToInstants(q.from, q.to, q.tz ?? UTC_ZONE);
  return {
    fromMs: instants.from === undefined ? undefined : Date.parse(instants.from),
    toMs: instants.to === undefined ? undefined : Date.parse(instants.to) + 1,
  };
}

/** True when the sort asked for is the upstream's own order (newest first), which needs no mirror. */
const isDefaultSort = (q: MirrorFilterQuery) => (q.sort ?? "at") === "at" && (q.dir ?? "desc") === "desc";

/** What the mirror-only parameters ask for, in words for a 409 ("filtering by driver"); empty when none is used. */
export function mirrorOnlyAsked(q: MirrorFilterQuery): string[] {
  const asked: string[] = [];
  const by = (used: boolean, words: string) => {
    if (used) asked.push(`filtering by ${words}`);
  };
  by(q.driver !== undefined, "driver");
  by(q.card !== undefined, "card");
  by(q.truck !== undefined, "truck");
  by(q.station !== undefined, "station");
  by(q.state !== undefined, "state");
  by(q.product !== undefined, "product");
  by(q.amountMin !== undefined || q.amountMax !== undefined, "amount");
  by(q.gallonsMin !== undefined || q.gallonsMax !== undefined, "gallons");
  by(q.dates !== undefined, "each purchase's local date");
  if (!isDefaultSort(q)) asked.push(`sorting by ${q.sort ?? "at"}`);
  return asked;
}

/** The filter without the search (which needs a look at the store: see `mirrorFilterOf`). */
function baseFilterOf(q: ServeQuery): MirrorFilter {
  return {
    ...instantRangeOf(q),
    ...(q.dates === "local" ? { localDays: { from: q.from, to: q.to } } : {}),
    status: q.status,
    driverId: q.driver,
    cardLast4: q.card,
    truckId: q.truck,
    stationId: q.station,
    state: q.state,
    product: q.product,
    amountMin: q.amountMin,
    amountMax: q.amountMax,
    gallonsMin: q.gallonsMin,
    gallonsMax: q.gallonsMax,
  };
}

/** The mirror's filter for a list query, the search resolved as the upstream path resolves it (see the module comment). */
export async function mirrorFilterOf(access: MirrorAccess, q: ServeQuery): Promise<MirrorFilter> {
  const base = baseFilterOf(q);
  if (q.search === undefined) return base;
  if (isReferenceLike(q.search)) {
    const byReference = { ...base, reference: q.search };
    const counts = await countsByStatus(access.store, access.customerId, byReference);
    if (Object.values(counts).some((n) => n > 0)) return byReference;
  }
  return { ...base, search: q.search, searchReferences: false };
}

/** The sort of the list: any column (lib/model LIST_SORT_COLUMNS), default newest first. */
export function sortOf(q: MirrorFilterQuery): {
  column: NonNullable<MirrorFilterQuery["sort"]>;
  direction: "asc" | "desc";
} {
  return { column: q.sort ?? "at", direction: q.dir ?? "desc" };
}
