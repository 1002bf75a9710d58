import type { Route } from "next";

import type { ExceptionContextFilter, ExceptionsReply } from "@/lib/model/insight-exceptions";
import { NO_MIRROR_FILTERS, writeTransactionFilters } from "@/lib/queries/transaction-filters";

/**
 * The transactions list around a hit: the subject's purchases on the hit's local dates (`dates=local`), written by
 * the list's own filter writer so the link reads exactly as the list does.
 */
export function contextHref(context: ExceptionContextFilter): Route {
  const query = writeTransactionFilters(new URLSearchParams(), {
    from: context.from,
    to: context.to,
    tz: "UTC",
    status: null,
    search: "",
    mirror: { ...NO_MIRROR_FILTERS, driver: context.driver, card: context.card, truck: context.truck, dates: "local" },
  });
  return `/transactions?${query.toString()}` as Route;
}

export const transactionHref = (id: string): Route => `/transactions/${encodeURIComponent(id)}` as Route;

/** A count against the previous period's, in words (the arrow only repeats them): "▲ 3 more than the previous period". */
export function countChange(count: number, previous: number | null): { arrow: "▲" | "▼" | null; text: string } | null {
  if (previous === null) return null;
  const diff = count - previous;
  if (diff === 0) return { arrow: null, text: `Same as the previous period (${String(previous)})` };
  return {
    arrow: diff > 0 ? "▲" : "▼",
    text: `${String(Math.abs(diff))} ${diff > 0 ? "more" : "fewer"} than the previous period (${String(previous)})`,
  };
}

/**
 * The previous period's coverage, said of the previous period: while it is partly loaded the BFF gives no previous
 * counts, so the change column reads "Not known" and this says why.
 */
export function previousNote(
  reply: Pick<ExceptionsReply, "periods" | "previousCoverage">,
): ExceptionsReply["previousCoverage"] {
  const c = reply.previousCoverage;
  if (c.complete || c.note === null) return c;
  const { from, to } = reply.periods.previous;
  return {
    ...c,
    note: `The previous period (${from} to ${to}) cannot be compared yet. ${c.note} Its change shows once it is loaded.`,
  };
}
