import type { DateFilterCoverage, ExportFormat, ListSortColumn, TransactionFilter } from "@/lib/model";

/**
 * The download name of a transaction export, and the `Content-Disposition` header that carries it: one home for the
 * rule, zod-free and free of server code.
 */

const EXPORT_FILENAME_PREFIX = "fleet-fuel-transactions";
const MAX_SEARCH_SLUG = 40;
const MAX_CUSTOMER_SLUG = 24;
/** Long enough for the upstream's ids as they are (a UUID is 36). */
const MAX_ID_SLUG = 40;

/** What an export says about itself: in its name, and in an XLSX also on its About sheet. */
export interface ExportNameFacts {
  /** As chosen: `from`/`to` are days of `dateFilter.timeZone` (UTC days without one). */
  filters: TransactionFilter;
  /** The zone of the days and the instants they cover (see DateFilterCoverage); absent without dates. */
  dateFilter?: DateFilterCoverage | null;
  generatedAt: Date;
  customer: { name: string; code: string | null };
  /** The upstream's total when the export started; the rows delivered may differ slightly if data changes mid-walk. */
  expectedRows: number;
  /** The filters only the mirror answers (driver, card, …), as asked; absent or empty when none was used. */
  narrowing?: ExportNarrowing;
  /** The rows' order; absent: newest first (the upstream's own order). */
  sort?: ExportSort;
  /** `local`: `from`/`to` are each purchase's own local date (`dates=local`); absent: days of `dateFilter`'s zone. */
  dateBasis?: "local";
  /** The mirror's last head sync when the rows came from it; absent or null when they came from the upstream live. */
  dataAsOf?: Date | null;
}

/** The list's filters only the mirror answers (query parameters of the same names), as the person chose them. */
export interface ExportNarrowing {
  driver?: string;
  card?: string;
  truck?: string;
  station?: string;
  state?: string;
  product?: string;
  amountMin?: string;
  amountMax?: string;
  gallonsMin?: string;
  gallonsMax?: string;
}

interface ExportSort {
  column: ListSortColumn;
  direction: "asc" | "desc";
}

/** A card number as every file writes it: the bullets keep it text in every spreadsheet, so "0042" stays 0042. */
export const formatCardNumber = (last4: string): string => `•••• ${last4}`;

const isNewestFirst = (sort: ExportSort | undefined) =>
  sort === undefined || (sort.column === "at" && sort.direction === "desc");

const SORT_WORDS: Record<ListSortColumn, string> = {
  at: "date",
  amount: "amount",
  gallons: "gallons",
  pricePerGallon: "price per gallon",
  status: "status",
  product: "product",
  driver: "driver",
  station: "station",
  state: "state",
  card: "card",
  truck: "truck",
  reference: "reference",
};

/** "Newest first", "By amount, highest first", "By driver, A to Z": the sort in words (About sheet). */
export function describeSort(sort: ExportSort | undefined): string {
  if (sort === undefined || isNewestFirst(sort)) return "Newest first";
  if (sort.column === "at") return "Oldest first";
  const isNumeric = sort.column === "amount" || sort.column === "gallons" || sort.column === "pricePerGallon";
  const order = isNumeric
    ? sort.direction === "asc"
      ? "lowest first"
      : "highest first"
    : sort.direction === "asc"
      ? "A to Z"
      : "Z to A";
  return `By ${SORT_WORDS[sort.column]}, ${order}`;
}

/** "Each purchase's own local date", "Days in UTC", "Days in America/Chicago": what `from`/`to` mean. */
export function describeDateBasis(facts: Pick<ExportNameFacts, "dateBasis" | "dateFilter">): string {
  if (facts.dateBasis === "local")
    return "Each purchase's own local date (the time of the purchase with its own UTC offset)";
  return `Days in ${facts.dateFilter?.timeZone ?? "UTC"}`;
}

/** Lower-case ASCII letters, digits and single dashes: accents dropped ("é" → "e"), anything else → "-". */
function slugify(text: string, maxLength: number): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, maxLength)
    .replace(/-+$/, "");
}

function customerPart(customer: ExportNameFacts["customer"]): string {
  if (customer.code === null) return slugify(customer.name, MAX_CUSTOMER_SLUG);
  return customer.code
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_CUSTOMER_SLUG);
}

function datesPart(filters: TransactionFilter): string {
  if (filters.from !== undefined && filters.to !== undefined) return `${filters.from}_to_${filters.to}`;
  if (filters.from !== undefined) return `from_${filters.from}`;
  if (filters.to !== undefined) return `to_${filters.to}`;
  return "all-dates";
}

/** `local-dates`, or the zone whose days they are (`UTC-days`, `America-Denver-days`); nothing without dates. */
function basisPart(facts: ExportNameFacts): string | null {
  if (facts.filters.from === undefined && facts.filters.to === undefined) return null;
  if (facts.dateBasis === "local") return "local-dates";
  return `${(facts.dateFilter?.timeZone ?? "UTC").replace(/\//g, "-")}-days`;
}

/** An id as sent (letters, digits, `.`, `-`; anything else `-`), case kept: `D-1042`. */
const idSlug = (id: string) => id.replace(/[^A-Za-z0-9.-]+/g, "-").slice(0, MAX_ID_SLUG);

function rangePart(words: string, min: string | undefined, max: string | undefined): string | null {
  if (min !== undefined && max !== undefined) return `${words}-${min}-to-${max}`;
  if (min !== undefined) return `${words}-from-${min}`;
  if (max !== undefined) return `${words}-to-${max}`;
  return null;
}

/** Every mirror-only filter used, in the order of the list's filter bar. */
function narrowingParts(n: ExportNarrowing | undefined): string[] {
  if (n === undefined) return [];
  const parts = [
    n.driver === undefined ? null : `driver-${idSlug(n.driver)}`,
    n.truck === undefined ? null : `truck-${idSlug(n.truck)}`,
    n.card === undefined ? null : `card-${idSlug(n.card)}`,
    n.station === undefined ? null : `station-${idSlug(n.station)}`,
    n.state === undefined ? null : `state-${idSlug(n.state)}`,
    n.product === undefined ? null : `product-${slugify(n.product, MAX_SEARCH_SLUG) || "other"}`,
    rangePart("amount", n.amountMin, n.amountMax),
    rangePart("gallons", n.gallonsMin, n.gallonsMax),
  ];
  return parts.filter((p): p is string => p !== null);
}

/** 2026-11-20T10:11:12.345Z → 2026-11-20T101112Z (no colons: they are not allowed in Windows file names). */
const stamp = (at: Date) => `${at.toISOString().slice(0, "YYYY-MM-DDTHH:MM:SS".length).replace(/:/g, "")}Z`;

/**
 * e.g. `fleet-fuel-transactions_PFL_2026-05-01_to_2026-05-31_UTC-days_completed_driver-D-1042_state-TX_search-smith_by-amount-desc_data-as-of-2026-11-20T100000Z_2026-11-20T101112Z_250-rows.csv`:
 * customer code (or a slug of the name when there is none), date range (`all-dates` without one) and what its days
 * are (`local-dates`, or the zone's days), status, every mirror-only filter, search slug (`search` alone when nothing
 * of it survives slugging), the sort (`newest-first` or `by-<column>-<dir>`), the mirror's "data as of" instant when
 * the rows came from it, the UTC time it was generated, and the rows expected at the start. The name is the CSV's
 * self-description (the file holds the column header and the rows only). Only `[A-Za-z0-9._-]` survive.
 */
export function exportFilename(format: ExportFormat, facts: ExportNameFacts): string {
  const { filters } = facts;
  const parts = [EXPORT_FILENAME_PREFIX];
  const customer = customerPart(facts.customer);
  if (customer !== "") parts.push(customer);
  parts.push(datesPart(filters));
  // The days are the zone's or each purchase's own: say which, so two exports of "the same" dates are told apart.
  const basis = basisPart(facts);
  if (basis !== null) parts.push(basis);
  if (filters.status !== undefined) parts.push(filters.status);
  parts.push(...narrowingParts(facts.narrowing));
  if (filters.search !== undefined) {
    const slug = slugify(filters.search, MAX_SEARCH_SLUG);
    parts.push(slug === "" ? "search" : `search-${slug}`);
  }
  const { sort } = facts;
  parts.push(sort === undefined || isNewestFirst(sort) ? "newest-first" : `by-${sort.column}-${sort.direction}`);
  if (facts.dataAsOf) parts.push(`data-as-of-${stamp(facts.dataAsOf)}`);
  parts.push(stamp(facts.generatedAt));
  parts.push(`${String(facts.expectedRows)}-${facts.expectedRows === 1 ? "row" : "rows"}`);
  return `${parts.join("_")}.${format}`.replace(/[^A-Za-z0-9._-]/g, "-");
}

/** What the jurisdiction report's files say about themselves in their name. */
interface JurisdictionNameFacts {
  customer: ExportNameFacts["customer"];
  /** Purchase-local dates, both ends inclusive. */
  from: string;
  to: string;
  /** The mirror's last head sync the figures are from; null when unknown. */
  dataAsOf: Date | null;
  generatedAt: Date;
}

/**
 * e.g. `fleet-fuel-jurisdictions_PFL_2026-04-01_to_2026-06-30_local-dates_completed_data-as-of-2026-07-02T080000Z_2026-07-02T081500Z.csv`:
 * the report counts completed purchases on each one's own local date; `.txt` is its About text.
 */
export function jurisdictionFilename(format: ExportFormat | "txt", facts: JurisdictionNameFacts): string {
  const parts = ["fleet-fuel-jurisdictions"];
  const customer = customerPart(facts.customer);
  if (customer !== "") parts.push(customer);
  parts.push(`${facts.from}_to_${facts.to}`, "local-dates", "completed");
  if (facts.dataAsOf !== null) parts.push(`data-as-of-${stamp(facts.dataAsOf)}`);
  parts.push(stamp(facts.generatedAt));
  const name = `${parts.join("_")}${format === "txt" ? "_about" : ""}.${format}`;
  return name.replace(/[^A-Za-z0-9._-]/g, "-");
}

/**
 * `attachment` with both `filename="…"` (an ASCII fallback: accents dropped, anything else `_`) and
 * `filename*=UTF-8''…` (RFC 6266 / RFC 5987 percent-encoding), which browsers prefer when present.
 * Control characters are dropped first so that nothing can end the header line.
 */
export function contentDisposition(filename: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const clean = filename.replace(/[\u0000-\u001f\u007f]/g, "") || "export";
  const ascii = clean
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^\x20-\x7e]|["\\]/g, "_");
  // encodeURIComponent leaves ! ' ( ) * alone; RFC 5987's attr-char does not allow ' ( ) *.
  const encoded = encodeURIComponent(clean).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
