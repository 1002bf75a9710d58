import { z } from "zod";

/**
 * The savings' settings (docs/configuration.md): how far a cheaper station may be, how old the recorded catalog may
 * get before `GET /api/savings` walks the catalog again (which also records its changed prices: the history), and how
 * far from a fill's instant an observed price may lie to be compared with it (the savings and the price rule).
 * Read once, on first use; a bad value stops the request with a sentence naming the variable.
 */
export interface SavingsConfig {
  radiusMiles: number;
  catalogRefreshMs: number;
  /** PRICE_WINDOW_HOURS: a fill is compared with prices observed at most this far from its instant (savings, exceptions). */
  windowHours: number;
  windowMs: number;
}

const HOUR_MS = 3_600_000;
const DEFAULT_SAVINGS_RADIUS_MILES = 10;
const DEFAULT_CATALOG_REFRESH_HOURS = 6;
const DEFAULT_PRICE_WINDOW_HOURS = 24;

const numberIn = (name: string, fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const n = Number(v);
      if (!Number.isFinite(n) || n < min || n > max) {
        ctx.addIssue({
          code: "custom",
          message: `${name} must be a number from ${String(min)} to ${String(max)}; "${v}" is not`,
        });
        return z.NEVER;
      }
      return n;
    });

const SavingsEnv = z.object({
  SAVINGS_RADIUS_MILES: numberIn("SAVINGS_RADIUS_MILES", DEFAULT_SAVINGS_RADIUS_MILES, 0.1, 100),
  CATALOG_REFRESH_HOURS: numberIn("CATALOG_REFRESH_HOURS", DEFAULT_CATALOG_REFRESH_HOURS, 0.1, 168),
  // A week at most: wider, a "price at the time" would no longer be one.
  // (lib/mirror/comparisons' MAX_PRICE_WINDOW_MS is this bound: a catalog walk's reach is judged with it.)
  PRICE_WINDOW_HOURS: numberIn("PRICE_WINDOW_HOURS", DEFAULT_PRICE_WINDOW_HOURS, 0, 168),
});

export function parseSavingsConfig(env: Readonly<Record<string, string | undefined>>): SavingsConfig {
  const parsed = SavingsEnv.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join("; "));
  return {
    radiusMiles: parsed.data.SAVINGS_RADIUS_MILES,
    catalogRefreshMs: parsed.data.CATALOG_REFRESH_HOURS * HOUR_MS,
    windowHours: parsed.data.PRICE_WINDOW_HOURS,
    windowMs: Math.round(parsed.data.PRICE_WINDOW_HOURS * HOUR_MS),
  };
}

let cached: SavingsConfig | undefined;

export function savingsConfig(): SavingsConfig {
  cached ??= parseSavingsConfig(process.env);
  return cached;
}
