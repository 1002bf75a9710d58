import "server-only";

import { listPage, type MirrorPage } from "@/lib/mirror";

import type { MirrorAccess } from "../platform/mirror-access";
import { mirrorFilterOf, type ServeQuery, sortOf } from "./mirror-filter";

/** One page of the list from the mirror: the upstream's rows for the same filters (see ./filter), any sort. */
export async function mirrorListPage(
  access: MirrorAccess,
  q: ServeQuery,
  paging: { page: number; limit: number },
): Promise<MirrorPage> {
  const filter = await mirrorFilterOf(access, q);
  return listPage(access.store, access.customerId, { filter, sort: sortOf(q), ...paging });
}
