// STUB of the insights contract (replaced by the lead's "Insights contract" commit on merge).
export interface LocalDateRange {
  from: string;
  to: string;
}
export interface InsightCoverage {
  requested: LocalDateRange;
  covered: LocalDateRange | null;
  complete: boolean;
  asOf: string | null;
  note: string | null;
}
export interface InsightPeriods {
  current: LocalDateRange;
  previous: LocalDateRange;
}
