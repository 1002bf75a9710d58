import "server-only";

import { credentialKey } from "@/lib/fleet-api";
import type { TransactionDetail } from "@/lib/model";

import { checkId } from "../http/query";
import { cache, cacheKey } from "../platform/cache";
import { getConfig } from "../platform/config";
import type { ActiveSession } from "../platform/session";
import { fleetApi } from "../platform/upstream";

/** One transaction in full, cached per key (`GET /api/transactions/[id]`, and the detail page's status check). */
export function getTransactionDetail(
  session: ActiveSession,
  id: string,
  signal?: AbortSignal,
): Promise<TransactionDetail> {
  const checked = checkId(id, "transaction");
  const key = credentialKey(session.credentials);
  return cache().get<TransactionDetail>(
    cacheKey(key, "transaction", checked),
    getConfig().cacheTtlMs.transactions,
    (shared) => fleetApi().getTransaction(session.credentials, checked, { signal: shared }),
    signal,
  );
}
