import "server-only";
import { credentialKey } from "@/lib/fleet-api";
import type { TransactionDetail } from "@/lib/model";
import { cache } from "./cache";
import { getConfig } from "./config";
import { checkId } from "./params";
import { readSession, type ActiveSession } from "./session";
import { fleetApi } from "./upstream";

/** One transaction in full, cached per key (`GET /api/transactions/[id]`, and the detail page's status check). */
export function getTransactionDetail(session: ActiveSession, id: string, signal?: AbortSignal): Promise<TransactionDetail> {
  const checked = checkId(id, "transaction");
  const key = credentialKey(session.credentials);
  return cache().get<TransactionDetail>(`${key}:transaction:${checked}`, getConfig().cacheTtlMs.transactions, () =>
    fleetApi().getTransaction(session.credentials, checked, signal === undefined ? {} : { signal }),
  );
}

/**
 * Whether the detail page should answer 404: only when the upstream says (or the id's form proves) that no such
 * transaction exists for this customer. Any other outcome (no session, an outage, a rate limit) renders the page,
 * whose own query shows that state. The lookup fills the same cache entry the page's query then reads, so the check
 * costs no extra upstream request.
 */
export async function isUnknownTransaction(id: string): Promise<boolean> {
  const result = await readSession({ readOnly: true });
  if ("problem" in result) return false;
  try {
    await getTransactionDetail(result.session, id);
    return false;
  } catch (error) {
    // By its code, not `instanceof`: a server page and the route handlers are separate module graphs in Next, and
    // the one upstream client of the process (kept on globalThis) may have been made by the other one, so its
    // FleetApiError class is not this graph's.
    return typeof error === "object" && error !== null && "code" in error && error.code === "not_found";
  }
}
