import { quoted } from "@/lib/format/quoted";
import { QUARTER_PATTERN, quarterRange } from "@/lib/model/insights";
import { isIsoDay } from "@/lib/model/time-zones";

/**
 * The period of an insight page in its URL (the BFF's insight routes read the same parameters: lib/bff/insights/
 * range.ts): `quarter=2026-Q3`, or `from`/`to` dates, or neither (the route's default: the last 30 days). Pure.
 */
export type InsightRangeView =
  { kind: "default" } | { kind: "quarter"; quarter: string } | { kind: "range"; from: string; to: string };

/**
 * Reads the URL; dates in the wrong order are put right, and what the BFF would refuse falls back to the default —
 * insightRangeProblems says which part of the link was not used.
 */
export function parseInsightRange(params: Pick<URLSearchParams, "get">): InsightRangeView {
  const quarter = params.get("quarter");
  if (quarter !== null && QUARTER_PATTERN.test(quarter)) return { kind: "quarter", quarter };
  const from = params.get("from");
  const to = params.get("to");
  if (isIsoDay(from) && isIsoDay(to))
    return from <= to ? { kind: "range", from, to } : { kind: "range", from: to, to: from };
  return { kind: "default" };
}

/**
 * What of a link's period was not used, in sentences a person can act on (the period picker shows them; issue 26).
 * Only the link's own values: the picker writes nothing it would refuse, so a choice made on the page never shows one.
 */
export function insightRangeProblems(params: Pick<URLSearchParams, "get">, defaultDays = 30): string[] {
  const view = parseInsightRange(params);
  const shown = insightRangeLabel(view, defaultDays);
  const quarter = params.get("quarter");
  const from = params.get("from");
  const to = params.get("to");
  const problems: string[] = [];
  if (quarter !== null && view.kind !== "quarter")
    problems.push(`${quoted(quarter)} is not a quarter (written like 2026-Q3); showing ${shown}.`);
  if (view.kind === "quarter" && (from !== null || to !== null))
    problems.push(`The link's dates were set aside for its quarter: showing ${shown}.`);
  if (view.kind === "range" && from !== null && to !== null && from > to)
    problems.push(`The start date ${from} was after the end date ${to}; showing ${shown}.`);
  if (view.kind === "default") {
    for (const [name, what, raw] of [
      ["from", "start date", from],
      ["to", "end date", to],
    ] as const)
      if (raw !== null && !isIsoDay(raw))
        problems.push(
          `The ${what} (${name}) ${quoted(raw)} ${/^\d{4}-\d{2}-\d{2}$/.test(raw) ? "is not a day of the calendar" : "is not a day written as YYYY-MM-DD"}; showing ${shown}.`,
        );
    if ((from === null) !== (to === null))
      problems.push(`A period needs both a start date (from) and an end date (to); showing ${shown}.`);
  }
  return problems;
}

/** The view's own parameters (for the page's URL and the API call), without the others the page keeps. */
export function insightRangeParams(view: InsightRangeView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.kind === "quarter") params.set("quarter", view.quarter);
  if (view.kind === "range") {
    params.set("from", view.from);
    params.set("to", view.to);
  }
  return params;
}

/** Writes the view into a page's URL parameters, keeping the page's other parameters. */
export function withInsightRange(
  current: Pick<URLSearchParams, "toString">,
  view: InsightRangeView,
  resets: readonly string[] = [],
): string {
  const params = new URLSearchParams(current.toString());
  // `resets`: the page's parameters that point into the old period's answer (the exceptions' `page`).
  for (const name of ["quarter", "from", "to", ...resets]) params.delete(name);
  for (const [name, value] of insightRangeParams(view)) params.set(name, value);
  return params.toString();
}

/** The period in words: "Q3 2026 (1 Jul – 30 Sep)", "2026-05-01 to 2026-05-31", "the last 30 days". */
export function insightRangeLabel(view: InsightRangeView, defaultDays = 30): string {
  if (view.kind === "default") return `the last ${String(defaultDays)} days`;
  if (view.kind === "range") return view.from === view.to ? view.from : `${view.from} to ${view.to}`;
  const range = quarterRange(view.quarter);
  const name = `Q${view.quarter.slice(6)} ${view.quarter.slice(0, 4)}`;
  return range === null ? name : `${name} (${range.from} to ${range.to})`;
}
