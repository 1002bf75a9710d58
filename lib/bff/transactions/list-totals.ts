import "server-only";

import { type Credentials, TRANSACTIONS_PAGE_MAX } from "@/lib/fleet-api";
import { type ListTotals, MAX_TOTALS_ROWS, type Transaction, type TransactionFilter } from "@/lib/model";

import { fleetApi } from "../platform/upstream";
import { findByReferenceCached, isReferenceLike, withoutSearch } from "./reference-search";
import { addUp } from "./summary";
import { isInsideInstants } from "./zoned-transactions";

/**
 * The totals of the list's filtered set (`GET /api/transactions/totals`): count, and the gallons and amount of the
 * completed and pending transactions, exact. Cost: page 1 at 200 rows tells the total; a set of at most
 * MAX_TOTALS_ROWS is then walked at bulk priority (one request per 200 rows, so at most 25), a larger one is not
 * walked at all ("too_many": the page shows the count from its own list reply and asks for a narrower filter). A
 * reference search adds up the transactions the reference lookup found (no further request).
 */
export async function listTotals(
  credentials: Credentials,
  filter: TransactionFilter,
  signal?: AbortSignal,
): Promise<ListTotals> {
  // Bounds that are instants reach a dates-only upstream as the covering UTC days: only rows inside them count.
  const isInside = isInsideInstants(filter);
  if (filter.search !== undefined && isReferenceLike(filter.search)) {
    const { matches } = await findByReferenceCached(credentials, withoutSearch(filter), filter.search, signal);
    const inside = matches.filter(isInside);
    if (inside.length > 0) return { state: "summed", ...(await addUp(inside)) };
  }
  const client = fleetApi();
  const options = { priority: "bulk" as const, ...(signal === undefined ? {} : { signal }) };
  const firstPage = await client.listTransactions(
    credentials,
    { ...filter, page: 1, limit: TRANSACTIONS_PAGE_MAX },
    options,
  );
  if (firstPage.total > MAX_TOTALS_ROWS)
    return { state: "too_many", transactions: firstPage.total, maxRows: MAX_TOTALS_ROWS };
  return {
    state: "summed",
    ...(await addUp(insideOnly(client.iterateTransactions(credentials, filter, { ...options, firstPage }), isInside))),
  };
}

async function* insideOnly(
  rows: AsyncIterable<Transaction>,
  isInside: (t: Transaction) => boolean,
): AsyncGenerator<Transaction> {
  for await (const row of rows) if (isInside(row)) yield row;
}
