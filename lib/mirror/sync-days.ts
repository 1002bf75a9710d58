/** UTC days as the sync counts them (YYYY-MM-DD, the upstream's `from`/`to`), and nullable instants' min and max. */

/** One day in ms: the mirror's one copy (the sync's days, the rollups' periods, purchase-local dates). */
export const DAY_MS = 86_400_000;

export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
export const dayStartMs = (day: string): number => Date.parse(`${day}T00:00:00.000Z`);
export const addDays = (day: string, n: number): string => utcDay(dayStartMs(day) + n * DAY_MS);
export const daysBetween = (a: string, b: string): number => Math.round((dayStartMs(b) - dayStartMs(a)) / DAY_MS);

export const maxOf = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.max(a, b);
export const minOf = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.min(a, b);
