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
 * How long the detail page waits for its lookup before it renders anyway (with HTTP 200 and its own loading state):
 * a full request budget (an export running) or a slow upstream must not leave a blank page. The lookup goes on and
 * fills the cache, and the page's query joins it.
 */
const PAGE_LOOKUP_WAIT_MS = 2_000;

/**
 * Whether the detail page should answer 404: only when the upstream says (or the id's form proves) that no such
 * transaction exists for this customer. Any other outcome (no session, an outage, a rate limit, no answer within
 * PAGE_LOOKUP_WAIT_MS) renders the page, whose own query shows that state. The lookup fills the same cache entry the
 * page's query then reads, so the check costs no extra upstream request.
 */
export async function isUnknownTransaction(id: string): Promise<boolean> {
  const result = await readSession({ readOnly: true });
  if ("problem" in result) return false;
  const session = result.session;
  // Inside then(): an id of the wrong form throws at once (not_found), which must settle the lookup, not escape it.
  const lookup = Promise.resolve()
    .then(() => getTransactionDetail(session, id))
    .then(
      () => false,
      // By its code, not `instanceof`: a server page and the route handlers are separate module graphs in Next, and
      // the one upstream client of the process (kept on globalThis) may have been made by the other one, so its
      // FleetApiError class is not this graph's.
      (error: unknown) => typeof error === "object" && error !== null && "code" in error && error.code === "not_found",
    );
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<false>((resolve) => {
    timer = setTimeout(() => {
      resolve(false);
    }, PAGE_LOOKUP_WAIT_MS);
  });
  try {
    return await Promise.race([lookup, waited]);
  } finally {
    clearTimeout(timer);
  }
}
