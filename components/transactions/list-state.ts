import type { TransactionStatus } from "@/lib/model";

/**
 * The transactions list's view as it lives in the URL (tablecn-style): every filter, the page and the page size.
 * Pure functions, so the parsing and the date presets are unit-tested without a browser.
 */

export const PAGE_SIZES = [25, 50, 100, 200] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 50;

export const STATUS_OPTIONS: readonly { value: TransactionStatus; label: string }[] = [
  { value: "completed", label: "Completed" },
  { value: "pending", label: "Pending" },
  { value: "failed", label: "Failed" },
];

export const RANGE_PRESETS = ["all", "today", "7d", "30d", "this-month", "last-month", "this-quarter", "custom"] as const;
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

/** The longest search the BFF accepts. */
export const MAX_SEARCH_LENGTH = 100;

export interface ListState {
  page: number;
  pageSize: PageSize;
  range: RangePreset;
  /** Only for `custom`: UTC days, YYYY-MM-DD. A relative preset is resolved when the list is shown, so a bookmark of "Last 7 days" stays relative. */
  from: string | null;
  to: string | null;
  status: TransactionStatus | null;
  search: string;
}

export const DEFAULT_LIST_STATE: ListState = {
  page: 1,
  pageSize: DEFAULT_PAGE_SIZE,
  range: "all",
  from: null,
  to: null,
  status: null,
  search: "",
};

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_PAGE = 1_000_000;

function isIsoDay(value: string | null): value is string {
  return value !== null && ISO_DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

function includes<T extends string | number>(list: readonly T[], value: unknown): value is T {
  return (list as readonly unknown[]).includes(value);
}

/** Reads the view from the URL; anything unreadable falls back to its default instead of failing the page. */
export function parseListState(params: Pick<URLSearchParams, "get">): ListState {
  const pageNumber = Number(params.get("page"));
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= MAX_PAGE ? pageNumber : 1;
  const sizeNumber = Number(params.get("limit"));
  const pageSize = includes(PAGE_SIZES, sizeNumber) ? sizeNumber : DEFAULT_PAGE_SIZE;
  const from = params.get("from");
  const to = params.get("to");
  const rawRange = params.get("range");
  let range: RangePreset = includes(RANGE_PRESETS, rawRange) ? rawRange : "all";
  // A shared link with only from/to is a custom range.
  if (rawRange === null && (isIsoDay(from) || isIsoDay(to))) range = "custom";
  const rawStatus = params.get("status");
  const status = STATUS_OPTIONS.find((option) => option.value === rawStatus)?.value ?? null;
  const search = (params.get("search") ?? "").trim().slice(0, MAX_SEARCH_LENGTH);
  return {
    page,
    pageSize,
    range,
    from: range === "custom" && isIsoDay(from) ? from : null,
    to: range === "custom" && isIsoDay(to) ? to : null,
    status,
    search,
  };
}

/** The view as a query string; defaults are left out so the plain list stays `/transactions`. */
export function serializeListState(state: ListState): string {
  const params = new URLSearchParams();
  if (state.range !== "all") params.set("range", state.range);
  if (state.range === "custom") {
    if (state.from !== null) params.set("from", state.from);
    if (state.to !== null) params.set("to", state.to);
  }
  if (state.status !== null) params.set("status", state.status);
  if (state.search !== "") params.set("search", state.search);
  if (state.pageSize !== DEFAULT_PAGE_SIZE) params.set("limit", String(state.pageSize));
  if (state.page !== 1) params.set("page", String(state.page));
  return params.toString();
}

export function hasActiveFilters(state: ListState): boolean {
  return state.range !== "all" || state.status !== null || state.search !== "";
}

export interface DayRange {
  from: string | null;
  to: string | null;
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function utcDay(year: number, month: number, day: number): Date {
  return new Date(Date.UTC(year, month, day));
}

/** The UTC days a preset covers at `now`, both ends inclusive (the BFF's `from`/`to`). */
export function resolveRange(state: Pick<ListState, "range" | "from" | "to">, now: Date = new Date()): DayRange {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const day = now.getUTCDate();
  const today = isoDay(utcDay(year, month, day));
  switch (state.range) {
    case "all":
      return { from: null, to: null };
    case "today":
      return { from: today, to: today };
    case "7d":
      return { from: isoDay(utcDay(year, month, day - 6)), to: today };
    case "30d":
      return { from: isoDay(utcDay(year, month, day - 29)), to: today };
    case "this-month":
      return { from: isoDay(utcDay(year, month, 1)), to: today };
    case "last-month":
      // Day 0 of this month is the last day of the previous one.
      return { from: isoDay(utcDay(year, month - 1, 1)), to: isoDay(utcDay(year, month, 0)) };
    case "this-quarter":
      return { from: isoDay(utcDay(year, month - (month % 3), 1)), to: today };
    case "custom":
      return { from: state.from, to: state.to };
  }
}
