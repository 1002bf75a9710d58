import { quoted } from "@/lib/format/quoted";
import type { TransactionStatus } from "@/lib/model";
import { MAX_SEARCH_LENGTH } from "@/lib/model/limits";
import { addDays, dayInZone, isIsoDay, isTimeZone, UTC_ZONE } from "@/lib/model/time-zones";
import {
  hasMirrorFilters,
  type ListSort,
  type MirrorFilterValues,
  NO_MIRROR_FILTERS,
  writeMirrorFilters,
} from "@/lib/queries/transaction-filters";

import { mirrorFilterProblems, parseMirrorFilters, parseSort } from "./mirror-filter-state";

/**
 * The transactions list's view as it lives in the URL (tablecn-style): every filter, the page and the page size.
 * Pure functions, so the parsing and the date presets are unit-tested without a browser.
 */

export const PAGE_SIZES = [25, 50, 100, 200] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
const DEFAULT_PAGE_SIZE: PageSize = 50;

export const STATUS_OPTIONS: readonly { value: TransactionStatus; label: string }[] = [
  { value: "completed", label: "Completed" },
  { value: "pending", label: "Pending" },
  { value: "failed", label: "Failed" },
];

export const RANGE_PRESETS = [
  "all",
  "today",
  "7d",
  "30d",
  "this-month",
  "last-month",
  "this-quarter",
  "custom",
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export const RANGE_LABELS: Readonly<Record<RangePreset, string>> = {
  all: "All time",
  today: "Today",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "this-month": "This month",
  "last-month": "Last month",
  "this-quarter": "This quarter",
  custom: "Custom",
};

export interface ListState {
  page: number;
  pageSize: PageSize;
  range: RangePreset;
  /** Only for `custom`: days in `tz`, YYYY-MM-DD. A relative preset is resolved when the list is shown, so a bookmark of "Last 7 days" stays relative. */
  from: string | null;
  to: string | null;
  status: TransactionStatus | null;
  search: string;
  /** The IANA zone whose days the filters count and whose clock the times are shown in (`tz=`). */
  tz: string;
  /** Driver, card, truck, station, state, product, amount and gallon ranges: only the local copy answers them. */
  mirror: MirrorFilterValues;
  /** A sort chosen by a column header (only the local copy sorts); null: newest first. */
  sort: ListSort | null;
}

export const DEFAULT_LIST_STATE: ListState = {
  page: 1,
  pageSize: DEFAULT_PAGE_SIZE,
  range: "all",
  from: null,
  to: null,
  status: null,
  search: "",
  tz: UTC_ZONE,
  mirror: NO_MIRROR_FILTERS,
  sort: null,
};

const MAX_PAGE = 1_000_000;

function includes<T extends string | number>(list: readonly T[], value: unknown): value is T {
  return (list as readonly unknown[]).includes(value);
}

/**
 * Reads the view from the URL; anything unreadable falls back to its default instead of failing the page (and
 * `listStateProblems` says what was set aside). `defaultZone` is the zone a URL without `tz` means (the browser's,
 * or the one this browser remembers).
 */
export function parseListState(params: Pick<URLSearchParams, "get">, defaultZone: string = UTC_ZONE): ListState {
  const pageNumber = Number(params.get("page"));
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= MAX_PAGE ? pageNumber : 1;
  const sizeNumber = Number(params.get("limit"));
  const pageSize = includes(PAGE_SIZES, sizeNumber) ? sizeNumber : DEFAULT_PAGE_SIZE;
  const rawFrom = params.get("from");
  const rawTo = params.get("to");
  const rawRange = params.get("range");
  let range: RangePreset = includes(RANGE_PRESETS, rawRange) ? rawRange : "all";
  // A shared link with only from/to is a custom range.
  if (rawRange === null && (isIsoDay(rawFrom) || isIsoDay(rawTo))) range = "custom";
  let from = range === "custom" && isIsoDay(rawFrom) ? rawFrom : null;
  let to = range === "custom" && isIsoDay(rawTo) ? rawTo : null;
  // Ends given the wrong way round: the days between them are still what was meant.
  if (from !== null && to !== null && from > to) [from, to] = [to, from];
  const rawStatus = params.get("status");
  const status = STATUS_OPTIONS.find((option) => option.value === rawStatus)?.value ?? null;
  const search = (params.get("search") ?? "").trim().slice(0, MAX_SEARCH_LENGTH);
  const rawZone = params.get("tz");
  const tz = rawZone !== null && isTimeZone(rawZone) ? rawZone : defaultZone;
  return {
    page,
    pageSize,
    range,
    from,
    to,
    status,
    search,
    tz,
    mirror: parseMirrorFilters(params),
    sort: parseSort(params),
  };
}

/**
 * What `parseListState` set aside, in words, so a mistyped or outdated link says what it shows instead ("The end date
 * “2026-02-30” is not a day of the calendar; the list has no end date.") rather than silently showing something else.
 */
export function listStateProblems(params: Pick<URLSearchParams, "get">, defaultZone: string = UTC_ZONE): string[] {
  const problems: string[] = [];
  const state = parseListState(params, defaultZone);
  const rawPage = params.get("page");
  if (rawPage !== null && String(state.page) !== rawPage)
    problems.push(
      `The page number ${quoted(rawPage)} is not a whole number from 1 to 1,000,000; the list shows page 1.`,
    );
  const rawLimit = params.get("limit");
  if (rawLimit !== null && String(state.pageSize) !== rawLimit) {
    problems.push(
      `${quoted(rawLimit)} rows per page is not offered (${PAGE_SIZES.join(", ")}); the list shows ${String(DEFAULT_PAGE_SIZE)}.`,
    );
  }
  const rawRange = params.get("range");
  if (rawRange !== null && rawRange !== state.range)
    problems.push(`${quoted(rawRange)} is not a date range this page offers; the list shows all dates.`);
  const ends = [
    ["from", "start date", "no start date"],
    ["to", "end date", "no end date"],
  ] as const;
  for (const [name, what, instead] of ends) {
    const raw = params.get(name);
    if (raw === null || isIsoDay(raw)) continue;
    const shape = /^\d{4}-\d{2}-\d{2}$/.test(raw)
      ? "is not a day of the calendar"
      : "is not a date written as YYYY-MM-DD";
    problems.push(`The ${what} ${quoted(raw)} ${shape}; the list has ${instead}.`);
  }
  const rawFrom = params.get("from");
  const rawTo = params.get("to");
  if (state.range === "custom" && isIsoDay(rawFrom) && isIsoDay(rawTo) && rawFrom > rawTo) {
    problems.push(
      `The start date ${rawFrom} was after the end date ${rawTo}; the list shows the days from ${rawTo} to ${rawFrom}.`,
    );
  }
  if (state.range !== "custom" && state.range !== "all" && (rawFrom !== null || rawTo !== null)) {
    problems.push(`The dates in the link were set aside: the range is “${RANGE_LABELS[state.range]}”.`);
  }
  const rawStatus = params.get("status");
  if (rawStatus !== null && rawStatus !== state.status)
    problems.push(`${quoted(rawStatus)} is not a status (completed, pending or failed); the list shows every status.`);
  const rawSearch = params.get("search");
  if (rawSearch !== null && rawSearch.trim().length > MAX_SEARCH_LENGTH)
    problems.push(
      `The search was longer than ${String(MAX_SEARCH_LENGTH)} characters; only its first ${String(MAX_SEARCH_LENGTH)} are searched.`,
    );
  const rawZone = params.get("tz");
  if (rawZone !== null && rawZone !== state.tz)
    problems.push(`${quoted(rawZone)} is not a time zone this browser knows; days and times are in ${state.tz}.`);
  return [...problems, ...mirrorFilterProblems(params)];
}

/**
 * The view as a query string; defaults are left out so the plain list stays `/transactions`. The zone is written
 * whenever days are filtered (a shared "Today" must mean the same day for the reader) or it is not the default.
 */
export function serializeListState(state: ListState, defaultZone: string = UTC_ZONE): string {
  const params = new URLSearchParams();
  if (state.range !== "all") params.set("range", state.range);
  if (state.range === "custom") {
    if (state.from !== null) params.set("from", state.from);
    if (state.to !== null) params.set("to", state.to);
  }
  if (state.status !== null) params.set("status", state.status);
  if (state.search !== "") params.set("search", state.search);
  writeMirrorFilters(params, state.mirror, state.sort);
  if (state.range !== "all" || state.tz !== defaultZone) params.set("tz", state.tz);
  if (state.pageSize !== DEFAULT_PAGE_SIZE) params.set("limit", String(state.pageSize));
  if (state.page !== 1) params.set("page", String(state.page));
  return params.toString();
}

export function hasActiveFilters(state: ListState): boolean {
  return state.range !== "all" || state.status !== null || state.search !== "" || hasMirrorFilters(state.mirror);
}

export interface DayRange {
  /** Days in the view's zone (`tz`), YYYY-MM-DD, both ends inclusive. */
  from: string | null;
  to: string | null;
}

/** The days of the view's zone a preset covers at `now`, both ends inclusive (the BFF's `from`/`to` with `tz`). */
export function resolveRange(state: Pick<ListState, "range" | "from" | "to" | "tz">, now: Date = new Date()): DayRange {
  const today = dayInZone(now.getTime(), state.tz);
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7)) - 1;
  const firstOf = (y: number, m: number) => new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
  switch (state.range) {
    case "all":
      return { from: null, to: null };
    case "today":
      return { from: today, to: today };
    case "7d":
      return { from: addDays(today, -6), to: today };
    case "30d":
      return { from: addDays(today, -29), to: today };
    case "this-month":
      return { from: firstOf(year, month), to: today };
    case "last-month":
      // The day before the 1st of this month is the last day of the previous one.
      return { from: firstOf(year, month - 1), to: addDays(firstOf(year, month), -1) };
    case "this-quarter":
      return { from: firstOf(year, month - (month % 3)), to: today };
    case "custom":
      return { from: state.from, to: state.to };
  }
}
