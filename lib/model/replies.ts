import type { DataOrigin } from "./mirror-replies";
import type { Page } from "./page";
import type { DateFilterCoverage, Transaction } from "./transaction";

/**
 * Replies of BFF endpoints that have no model type of their own, zod-free: the operation (lib/bff/<resource>/) returns
 * this type and the browser's query (lib/queries) reads it, so both sides share one contract.
 */

/**
 * `GET /api/transactions`: a page, which instants its dates cover (the zone's days; null without dates), and where
 * its rows came from (the customer's mirror or the upstream).
 */
export type TransactionListReply = Page<Transaction> & { dateFilter: DateFilterCoverage | null; origin: DataOrigin };

/** `POST /api/session`: who signed in. */
export interface SignInResult {
  /** Null when the key lacks the account scope. */
  customer: { name: string | null; code: string | null };
  /** The scopes the upstream reported for the key, when it reports them. */
  scopes: string[] | null;
  upstreamHost: string;
  expiresAt: string;
}

/** `GET /api/session`: who is signed in, and whether the upstream is the local sandbox. */
export interface SessionInfo extends SignInResult {
  upstreamIsSandbox: boolean;
}
