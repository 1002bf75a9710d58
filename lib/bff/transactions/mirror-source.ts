import "server-only";

import { countsByStatus, exportRows, facetsOf } from "@/lib/mirror";
import type { DataOrigin } from "@/lib/model";

import type { MirrorAccess } from "../platform/mirror-access";
import { mirrorFilterOf, sortOf } from "./mirror-filter";
import { mirrorListPage } from "./mirror-list";
import { mirrorSummary } from "./mirror-summary";
import { mirrorListTotals } from "./mirror-totals";
import type { MirrorSource } from "./source";

/**
 * The customer's mirror as a transaction source: the upstream's rows for the same filters (./mirror-filter.ts), any
 * sort, the mirror-only filters, and a summary of any range it covers with the previous period. Nothing is cached: it
 * answers in milliseconds, and a cached answer would hide the next head sync.
 */
export function mirrorSource(access: MirrorAccess, origin: DataOrigin): MirrorSource {
  return {
    kind: "mirror",
    access,
    origin,
    list: (q, paging) => mirrorListPage(access, q, paging),
    totals: (q) => mirrorListTotals(access, q),
    summary: (range) => mirrorSummary(access, origin, range),
    // The most recent rows are enough to offer a filter; while older history still loads, what it holds so far.
    facets: () => facetsOf(access.store, access.customerId),
    exportRows: async (q) => {
      const filter = await mirrorFilterOf(access, q);
      const counts = await countsByStatus(access.store, access.customerId, filter);
      return {
        rows: exportRows(access.store, access.customerId, filter, sortOf(q)),
        isInside: () => true,
        expectedRows: Object.values(counts).reduce((sum, n) => sum + n, 0),
        dataAsOf: origin.asOf === null ? null : new Date(origin.asOf),
      };
    },
  };
}
