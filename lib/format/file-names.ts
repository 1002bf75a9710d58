import type { DateFilterCoverage, ExportFormat, TransactionFilter } from "@/lib/model";

/**
 * The download name of a transaction export, and the `Content-Disposition` header that carries it: one home for the
 * rule, zod-free and free of server code.
 */

const EXPORT_FILENAME_PREFIX = "fleet-fuel-transactions";
const MAX_SEARCH_SLUG = 40;
const MAX_CUSTOMER_SLUG = 24;

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

/**
 * e.g. `fleet-fuel-transactions_PFL_2026-05-01_to_2026-05-31_completed_search-smith_2026-11-20T101112Z_250-rows.csv`:
 * customer code (or a slug of the name when there is none), date range (`all-dates` without one), status, search slug
 * (`search` alone when nothing of it survives slugging), the UTC time it was generated, and the rows expected at the
 * start. The name is the CSV's self-description (its first line is the column header). Only `[A-Za-z0-9._-]` survive.
 */
export function exportFilename(format: ExportFormat, facts: ExportNameFacts): string {
  const { filters } = facts;
  const parts = [EXPORT_FILENAME_PREFIX];
  const customer = customerPart(facts.customer);
  if (customer !== "") parts.push(customer);
  parts.push(datesPart(filters));
  // The days are the zone's: say which, so two exports of "the same" dates from two zones are told apart.
  const zone = facts.dateFilter?.timeZone;
  if (zone !== undefined && zone !== "UTC") parts.push(zone.replace(/\//g, "-"));
  if (filters.status !== undefined) parts.push(filters.status);
  if (filters.search !== undefined) {
    const slug = slugify(filters.search, MAX_SEARCH_SLUG);
    parts.push(slug === "" ? "search" : `search-${slug}`);
  }
  // 2026-11-20T10:11:12.345Z → 2026-11-20T101112Z (no colons: they are not allowed in Windows file names).
  parts.push(`${facts.generatedAt.toISOString().slice(0, "YYYY-MM-DDTHH:MM:SS".length).replace(/:/g, "")}Z`);
  parts.push(`${String(facts.expectedRows)}-${facts.expectedRows === 1 ? "row" : "rows"}`);
  return `${parts.join("_")}.${format}`.replace(/[^A-Za-z0-9._-]/g, "-");
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
