import { z } from "zod";

/**
 * The savings' settings (README "Configuration"): how far a cheaper station may be, and how old the recorded catalog
 * may get before `GET /api/savings` walks the catalog again (which also records its changed prices: the history).
 * Read once, on first use; a bad value stops the request with a sentence naming the variable.
 */
export interface SavingsConfig {
  radiusMiles: number;
  catalogRefreshMs: number;
}

const HOUR_MS = 3_600_000;
const DEFAULT_SAVINGS_RADIUS_MILES = 10;
const DEFAULT_CATALOG_REFRESH_HOURS = 6;

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
});

export function parseSavingsConfig(env: Readonly<Record<string, string | undefined>>): SavingsConfig {
  const parsed = SavingsEnv.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join("; "));
  return {
    radiusMiles: parsed.data.SAVINGS_RADIUS_MILES,
    catalogRefreshMs: parsed.data.CATALOG_REFRESH_HOURS * HOUR_MS,
  };
}

let cached: SavingsConfig | undefined;

export function savingsConfig(): SavingsConfig {
  cached ??= parseSavingsConfig(process.env);
  return cached;
}
