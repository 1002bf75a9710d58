import "server-only";

import type { TransactionFacetsReply } from "@/lib/model";

import { sessionOperation } from "../http/operation";
import { NoQuery } from "../http/query";
import { now } from "../platform/clock";
import { chooseSource } from "./choose-source";

/**
 * GET /api/transactions/facets — the values the list's mirror-only filters can take (drivers, cards, trucks,
 * stations, states, products), from the customer's mirror once a head sync has run (while older history still loads,
 * what it holds so far). Without a mirror: empty lists with the upstream origin and its note, not an error: the page
 * hides the filters it cannot offer, and the list's own 409 explains a filter sent anyway.
 */
export const transactionFacets = sessionOperation({
  route: "GET /api/transactions/facets",
  input: { query: NoQuery },
  csrf: "same-site",
  reads: "transactions",
  priority: "interactive",
  run: async (ctx): Promise<TransactionFacetsReply> => {
    // The most recent rows are enough to offer a filter: a start "now" needs only a head sync.
    const source = await chooseSource(ctx, { fromMs: now() });
    return { ...(await source.facets()), origin: source.origin };
  },
});
