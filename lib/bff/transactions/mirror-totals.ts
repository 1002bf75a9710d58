import "server-only";

import { countsByStatus } from "@/lib/mirror";
import type { ListTotals } from "@/lib/model";

import type { MirrorAccess } from "../platform/mirror-access";
import { readOffThread } from "../platform/off-thread/pool";
import { mirrorFilterOf, type ServeQuery } from "./mirror-filter";

/**
 * The list's filtered set summed from the mirror (`GET /api/transactions/totals`): every row of the filter, the failed
 * ones among them, and the completed and pending rows' gallons and amount — the rule the upstream walk follows
 * (lib/bff/transactions/list-totals), exact, with no row limit (the mirror answers any size in one query).
 */
export async function mirrorListTotals(access: MirrorAccess, q: ServeQuery): Promise<ListTotals> {
  const filter = await mirrorFilterOf(access, q);
  const [spend, counts] = await Promise.all([
    readOffThread(access.store, "summary.period-totals", [access.customerId, filter]),
    countsByStatus(access.store, access.customerId, filter),
  ]);
  return {
    state: "summed",
    transactions: spend.transactions + counts.failed,
    failed: counts.failed,
    gallons: spend.gallons,
    amount: spend.amount,
  };
}
