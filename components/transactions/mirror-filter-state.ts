import { quoted } from "@/lib/format/quoted";
import { LIST_SORT_COLUMNS, type ListSortColumn } from "@/lib/model/mirror-replies";
import { US_STATE_CODES } from "@/lib/model/us-states";
import {
  type ListSort,
  MIRROR_FILTER_NAMES,
  type MirrorFilterValues,
  NO_MIRROR_FILTERS,
} from "@/lib/queries/transaction-filters";

/**
 * The URL state of the filters only the local copy answers (driver, card, truck, station, state, product, amount and
 * gallon ranges) and of the sort. Pure, like list-state.ts (which folds these into the list's view). The rules of a
 * value are the BFF's (lib/bff/mirror-serve/params.ts): what it would refuse with a 400 is set aside here, and said.
 */

type MirrorFilterName = (typeof MIRROR_FILTER_NAMES)[number];
type RangeName = "amountMin" | "amountMax" | "gallonsMin" | "gallonsMax";

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
/** The BFF's product rule (lib/bff/mirror-serve/params.ts): letters, digits, space and # . - _ / +, up to 40. */
const PRODUCT = /^[A-Za-z0-9][A-Za-z0-9 #._/+-]{0,39}$/;

/** Decimals a range takes: cents for amounts, thousandths for gallons (the upstream's precision). */
export const RANGE_PLACES: Readonly<Record<RangeName, number>> = {
  amountMin: 2,
  amountMax: 2,
  gallonsMin: 3,
  gallonsMax: 3,
};

/** The filter in words, for messages ("The driver “x” …"). */
const WORDS: Readonly<Record<MirrorFilterName, string>> = {
  driver: "driver",
  card: "card",
  truck: "truck",
  station: "station",
  state: "state",
  product: "product",
  amountMin: "lowest amount",
  amountMax: "highest amount",
  gallonsMin: "fewest gallons",
  gallonsMax: "most gallons",
  dates: "date basis",
};

function isRangeName(name: MirrorFilterName): name is RangeName {
  return name in RANGE_PLACES;
}

/** The value as the BFF takes it, or null when it would refuse it. */
function readValue(name: MirrorFilterName, raw: string): string | null {
  const value = raw.trim();
  if (isRangeName(name)) {
    const plain = plainDecimal(value);
    return decimalProblem(plain, RANGE_PLACES[name]) === null && plain !== "" ? plain : null;
  }
  switch (name) {
    case "card":
      return /^\d{4}$/.test(value) ? value : null;
    case "dates":
      return value === "local" ? value : null;
    case "state": {
      const code = value.toUpperCase();
      return (US_STATE_CODES as readonly string[]).includes(code) ? code : null;
    }
    case "product":
      return PRODUCT.test(value) ? value.toLowerCase() : null;
    default:
      return ID.test(value) ? value : null;
  }
}

/**
 * A figure as people type it, made plain: "$1,000.50" → "1000.50", "1,000" → "1000", " 25 gal " → "25". Commas only
 * as thousands separators (groups of three); anything else comes back as typed, for decimalProblem to name.
 */
export function plainDecimal(text: string): string {
  const bare = text
    .trim()
    .replace(/^\$\s*/, "")
    .replace(/\s*(gal|gallons)\.?$/i, "");
  return /^\d{1,3}(,\d{3})+(\.\d*)?$/.test(bare) ? bare.replaceAll(",", "") : bare;
}

/**
 * What is wrong with a typed amount or gallon figure, in a sentence; null when it is fine (or empty: no bound). The
 * BFF takes up to nine digits before the point and `places` after it.
 */
export function decimalProblem(value: string, places: number): string | null {
  const text = plainDecimal(value);
  if (text === "") return null;
  if (!/^\d*\.?\d*$/.test(text) || text === ".")
    return "Enter a number such as 25, 1,000 or 25.50 (a $ in front is fine; no minus sign).";
  const [whole = "", fraction = ""] = text.split(".");
  if (whole.length > 9) return "Enter a number below 1,000,000,000.";
  if (fraction.length > places) return `Enter at most ${String(places)} decimals.`;
  return null;
}

/** A minimum above its maximum, in a sentence (null when both are fine or either is missing). */
export function rangeOrderProblem(min: string | null, max: string | null, what: "amount" | "gallons"): string | null {
  if (min === null || max === null || Number(min) <= Number(max)) return null;
  return `The lowest ${what} (${min}) is above the highest (${max}).`;
}

/** Reads the filters from the URL; a value the BFF would refuse is left out (see mirrorFilterProblems). */
export function parseMirrorFilters(params: Pick<URLSearchParams, "get">): MirrorFilterValues {
  const filters: MirrorFilterValues = { ...NO_MIRROR_FILTERS };
  for (const name of MIRROR_FILTER_NAMES) {
    const raw = params.get(name);
    filters[name] = raw === null ? null : readValue(name, raw);
  }
  // Ends the wrong way round: dropped, as a swapped pair of bounds would show nothing.
  if (rangeOrderProblem(filters.amountMin, filters.amountMax, "amount") !== null) {
    filters.amountMin = null;
    filters.amountMax = null;
  }
  if (rangeOrderProblem(filters.gallonsMin, filters.gallonsMax, "gallons") !== null) {
    filters.gallonsMin = null;
    filters.gallonsMax = null;
  }
  return filters;
}

const SORT_DIRS = ["asc", "desc"] as const;

/** The sort in the URL (`sort`, `dir`; `dir` defaults to desc); null for the default, newest first. */
export function parseSort(params: Pick<URLSearchParams, "get">): ListSort | null {
  const column = params.get("sort");
  if (column === null || !(LIST_SORT_COLUMNS as readonly string[]).includes(column)) return null;
  const rawDir = params.get("dir");
  const dir = rawDir === "asc" ? "asc" : "desc";
  const sort = { column: column as ListSortColumn, dir } as const;
  return sort.column === "at" && sort.dir === "desc" ? null : sort;
}

/** What parseMirrorFilters and parseSort set aside, in words. */
export function mirrorFilterProblems(params: Pick<URLSearchParams, "get">): string[] {
  const problems: string[] = [];
  for (const name of MIRROR_FILTER_NAMES) {
    const raw = params.get(name);
    if (raw !== null && readValue(name, raw) === null)
      problems.push(`${quoted(raw)} is not a ${WORDS[name]} this list can filter by; that filter is off.`);
  }
  const pairs = [
    ["amountMin", "amountMax", "amount"],
    ["gallonsMin", "gallonsMax", "gallons"],
  ] as const;
  for (const [low, high, what] of pairs) {
    const min = params.get(low);
    const max = params.get(high);
    if (min === null || max === null) continue;
    const order = rangeOrderProblem(readValue(low, min), readValue(high, max), what);
    if (order !== null) problems.push(`${order} Both ${what} bounds are off.`);
  }
  const sort = params.get("sort");
  if (sort !== null && !(LIST_SORT_COLUMNS as readonly string[]).includes(sort))
    problems.push(`${quoted(sort)} is not a column the list can sort by; it is sorted newest first.`);
  const dir = params.get("dir");
  if (dir !== null && !(SORT_DIRS as readonly string[]).includes(dir))
    problems.push(`${quoted(dir)} is not a sort direction (asc or desc); the list sorts descending.`);
  return problems;
}
