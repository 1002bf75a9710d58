import "server-only";

import { addDays, type Transaction } from "@/lib/model";

import { type OperationContext, runWithQuery } from "../http/operation";
import { exportTransactionsFile } from "../transactions/export-transactions";
import type { TestMirror } from "../transactions/test-mirror";
import { transactionTotals } from "../transactions/transaction-totals";
import { csvSums, type Figure, type FileSums, xlsxSums } from "./figures";

/**
 * Tests only (the tie-out): one random question — a period, a zone, at most one filter — and the readers of the
 * sources every other figure is held against: the totals bar (`GET /api/transactions/totals`) and the two export
 * files of the same filter.
 */
/** What the tie-out reads (test/tie-out-stack.ts starts it): the mirror, the fleet's purchases, a signed-in context. */
export interface TieOutStack {
  mirror: TestMirror;
  /** The upstream's whole list of demo-full, newest first. */
  all: Transaction[];
  /** A context answering from the mirror. */
  ctx: () => OperationContext;
}

export type TieOutFilter =
  | { status: "completed" | "pending" | "failed" }
  | { driver: string }
  | { card: string }
  | { truck: string }
  | { station: string }
  | { state: string }
  | { product: string }
  | Record<string, never>;

export interface TieOutCase {
  /** Days, both ends inclusive. */
  from: string;
  to: string;
  /** The zone the list's days are read in (the insights always count purchase-local dates). */
  tz: string;
  filter: TieOutFilter;
}

/**
 * A deliberate fault for the self-check: the totals bar's period moved by this many days (0 in the real tie-out),
 * the off-by-one-day the tie-out must catch.
 */
export interface Knobs {
  shiftListDays: number;
}

export const NO_KNOBS: Knobs = { shiftListDays: 0 };

/** A query for the list's routes: the case's period (moved by the knob), plus whatever else is given. */
export function listQuery(
  period: { from: string; to: string },
  knobs: Knobs,
  rest: Record<string, string | undefined> = {},
): Record<string, string> {
  const query: Record<string, string> = {
    from: addDays(period.from, knobs.shiftListDays),
    to: addDays(period.to, knobs.shiftListDays),
  };
  for (const [name, value] of Object.entries(rest)) if (value !== undefined) query[name] = value;
  return query;
}

/** The totals bar of a list query: every row (`all`) and the spend (completed + pending) as a figure. */
export async function totalsBar(stack: TieOutStack, query: Record<string, string>): Promise<FileSums> {
  const totals = await runWithQuery(transactionTotals, stack.ctx(), query);
  if (totals.state !== "summed") throw new Error(`the totals bar did not sum ${JSON.stringify(query)}`);
  return {
    all: totals.transactions,
    spend: { count: totals.transactions - totals.failed, gallons: totals.gallons, amount: totals.amount },
  };
}

/** The totals bar's spend figure alone. */
export const spendOf = async (stack: TieOutStack, query: Record<string, string>): Promise<Figure> =>
  (await totalsBar(stack, query)).spend;

/** The CSV and the XLSX export of a list query, summed as the totals bar sums. */
export async function exportSums(
  stack: TieOutStack,
  query: Record<string, string>,
): Promise<{ csv: FileSums; xlsx: FileSums }> {
  const csv = await runWithQuery(exportTransactionsFile, stack.ctx(), { ...query, format: "csv" });
  if (!csv.ok) throw new Error(`the CSV export answered ${String(csv.status)}`);
  const xlsx = await runWithQuery(exportTransactionsFile, stack.ctx(), { ...query, format: "xlsx" });
  if (!xlsx.ok) throw new Error(`the XLSX export answered ${String(xlsx.status)}`);
  return { csv: csvSums(await csv.text()), xlsx: await xlsxSums(await xlsx.arrayBuffer()) };
}

/** A count alone as a figure (where a source states no gallons or amount, e.g. failed purchases). */
export const countOnly = (count: number): Figure => ({ count, gallons: null, amount: null });
