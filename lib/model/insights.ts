/**
 * The insights contract (issue 16): every report, drill-down, exception and savings figure counts a purchase on its
 * **local date** — `transaction_at` read with its own UTC offset (the mirror row's `at_ms + local_offset_min`; an
 * offset of Z is UTC) — so a quarter is the quarter the receipt says, wherever the reader sits.
 */

/** Calendar dates YYYY-MM-DD, both inclusive, by each purchase's local date. */
export interface LocalDateRange {
  from: string;
  to: string;
}

/**
 * What part of a requested range an insight's figures cover. The mirror answers only the days it holds exactly;
 * `note` says in a sentence what is missing, so a page never shows a silent partial number.
 */
export interface InsightCoverage {
  requested: LocalDateRange;
  /** The days the figures cover exactly; null when none yet (the local copy is still loading). */
  covered: LocalDateRange | null;
  /** True when `covered` is the whole of `requested`. */
  complete: boolean;
  /** The last head sync (ISO instant): the figures are exact as of then; null before the first. */
  asOf: string | null;
  /** Why the figures do not cover the whole range, in a sentence; null when they do. */
  note: string | null;
}

/** A range asked for and the period it is compared with (the quarter before, or as many days just before `from`). */
export interface InsightPeriods {
  current: LocalDateRange;
  previous: LocalDateRange;
}

/** A quarter the range pickers offer: `2026-Q4`, "Q4 2026". */
export interface QuarterOption {
  id: string;
  label: string;
  range: LocalDateRange;
}

export const QUARTER_PATTERN = /^(\d{4})-Q([1-4])$/;

const pad = (n: number) => String(n).padStart(2, "0");
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The dates of a quarter id ("2026-Q3" → 2026-07-01 … 2026-09-30); null when it is not one. */
export function quarterRange(id: string): LocalDateRange | null {
  const m = QUARTER_PATTERN.exec(id);
  if (!m) return null;
  const year = Number(m[1]);
  const q = Number(m[2]);
  const firstMonth = (q - 1) * 3;
  return {
    from: `${String(year)}-${pad(firstMonth + 1)}-01`,
    to: isoDay(Date.UTC(year, firstMonth + 3, 1) - 86_400_000),
  };
}

/** The quarter id of a date ("2026-11-24" → "2026-Q4"). */
export function quarterOf(day: string): string {
  const month = Number(day.slice(5, 7));
  return `${day.slice(0, 4)}-Q${String(Math.floor((month - 1) / 3) + 1)}`;
}

/** The quarter before ("2026-Q1" → "2025-Q4"). */
export function previousQuarter(id: string): string {
  const m = QUARTER_PATTERN.exec(id);
  if (!m) throw new Error(`not a quarter: ${id}`);
  const year = Number(m[1]);
  const q = Number(m[2]);
  return q === 1 ? `${String(year - 1)}-Q4` : `${String(year)}-Q${String(q - 1)}`;
}

/** The last `n` quarters, the one `today` is in first. */
export function recentQuarters(today: string, n = 8): QuarterOption[] {
  const out: QuarterOption[] = [];
  let id = quarterOf(today);
  for (let i = 0; i < n; i++) {
    const range = quarterRange(id);
    if (range) out.push({ id, label: `Q${id.slice(6)} ${id.slice(0, 4)}`, range });
    id = previousQuarter(id);
  }
  return out;
}

/** Days between two dates, both inclusive (2026-01-01 … 2026-01-01 = 1). */
export function daysIn(range: LocalDateRange): number {
  return Math.round((Date.parse(range.to) - Date.parse(range.from)) / 86_400_000) + 1;
}

/** `day` moved by `n` days. */
export function addDays(day: string, n: number): string {
  return isoDay(Date.parse(day) + n * 86_400_000);
}
