import "server-only";

import type {
  DataOrigin,
  ListTotals,
  Transaction,
  TransactionFacets,
  TransactionListReply,
  TransactionSummaryReply,
} from "@/lib/model";

import type { MirrorAccess } from "../platform/mirror-access";
import type { ServeQuery } from "./mirror-filter";

/**
 * Where a request's transactions come from: the customer's mirror (./mirror-source.ts, a local copy read in
 * milliseconds, every filter and sort) or the upstream (./upstream-source.ts: reference search, a zone's days on a
 * dates-only upstream, the totals and summary walks, cached). `chooseSource` (./choose-source.ts) picks one per
 * request; the five transactions operations ask the source they are given, and so answer the same on both.
 */
export interface TransactionSource {
  kind: "mirror" | "upstream";
  /** What the reply says about where it comes from (and why not the mirror, in a sentence). */
  origin: DataOrigin;
  /** One page of the list, for the query's filters (and sort, on the mirror). */
  list(q: ServeQuery, paging: Paging): Promise<ListPage>;
  /** The list's filtered set: count, gallons, amount. */
  totals(q: ServeQuery): Promise<ListTotals>;
  /** Totals, daily series and rankings over UTC days `from`..`to`. */
  summary(range: DayRange): Promise<TransactionSummaryReply>;
  /** The values the mirror-only filters can take (none from the upstream: the page hides those filters). */
  facets(): Promise<TransactionFacets>;
  /** An export's rows, in the list's order; page 1 is read before this answers (a refusal is still a JSON error). */
  exportRows(q: ServeQuery, signal: AbortSignal): Promise<ExportRows>;
}

/** The mirror's source also gives the insights the mirror itself (they read it by local dates). */
export interface MirrorSource extends TransactionSource {
  kind: "mirror";
  access: MirrorAccess;
}

export interface Paging {
  page: number;
  limit: number;
}

export interface DayRange {
  from: string;
  to: string;
}

export type ListPage = Omit<TransactionListReply, "dateFilter" | "origin">;

/** Where an export's rows come from: the rows (kept to `isInside`), how many to expect, and the mirror's sync time. */
export interface ExportRows {
  rows: AsyncIterable<Transaction>;
  isInside: (t: Transaction) => boolean;
  expectedRows: number;
  dataAsOf: Date | null;
}
