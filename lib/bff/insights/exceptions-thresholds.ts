import "server-only";

import { DEFAULT_EXCEPTION_THRESHOLDS, type ExceptionThresholds } from "@/lib/insights/exceptions/types";
import type { ExceptionThreshold } from "@/lib/model/insight-exceptions";

import { ExceptionsEnvSchema } from "../platform/config-schema";

/**
 * The exception rules' thresholds in force: the EXCEPTIONS_* environment variables (lib/bff/platform/config-schema.ts, checked
 * at start), read once per process. `thresholdTable` lists them for the page with their defaults.
 */

type EnvName = keyof typeof ExceptionsEnvSchema.shape;

const FIELDS: readonly { env: EnvName; key: keyof ExceptionThresholds; label: string; unit: string }[] = [
  { env: "EXCEPTIONS_RAPID_FILLS_COUNT", key: "rapidFillsCount", label: "Several fills: how many", unit: "fills" },
  {
    env: "EXCEPTIONS_RAPID_FILLS_WINDOW_MINUTES",
    key: "rapidFillsWindowMinutes",
    label: "Several fills: within",
    unit: "min",
  },
  {
    env: "EXCEPTIONS_LARGE_FILL_PERCENTILE",
    key: "largeFillPercentile",
    label: "Large fill: above the percentile",
    unit: "th",
  },
  {
    env: "EXCEPTIONS_LARGE_FILL_MEDIAN_PERCENT",
    key: "largeFillMedianPercent",
    label: "Large fill: and above this share of the median",
    unit: "%",
  },
  {
    env: "EXCEPTIONS_HISTORY_MIN_FILLS",
    key: "historyMinFills",
    label: "Truck's usual: fewest earlier fills",
    unit: "fills",
  },
  { env: "EXCEPTIONS_HISTORY_DAYS", key: "historyDays", label: "Truck's usual: days before the period", unit: "days" },
  { env: "EXCEPTIONS_NIGHT_START_HOUR", key: "nightStartHour", label: "Night starts at (local hour)", unit: ":00" },
  { env: "EXCEPTIONS_NIGHT_END_HOUR", key: "nightEndHour", label: "Night ends at (local hour)", unit: ":00" },
  { env: "EXCEPTIONS_WEEKENDS", key: "weekends", label: "Weekends count as off hours", unit: "" },
  {
    env: "EXCEPTIONS_PRICE_MARGIN_CENTS",
    key: "priceMarginCents",
    label: "Price above the customer price at the time by more than",
    unit: "¢/gal",
  },
  {
    env: "EXCEPTIONS_UNUSUAL_PRODUCT_MAX_PERCENT",
    key: "unusualProductMaxPercent",
    label: "Unusual product: under this share of the truck's fills",
    unit: "%",
  },
  {
    env: "EXCEPTIONS_DEF_DIESEL_WINDOW_MINUTES",
    key: "defDieselWindowMinutes",
    label: "DEF without diesel: no diesel within",
    unit: "min",
  },
  { env: "EXCEPTIONS_TRAVEL_MPH", key: "travelMph", label: "Impossible travel: faster than", unit: "mph" },
  {
    env: "EXCEPTIONS_TRAVEL_MIN_MILES",
    key: "travelMinMiles",
    label: "Impossible travel: stations at least",
    unit: "mi apart",
  },
  {
    env: "EXCEPTIONS_FAILED_WINDOW_MINUTES",
    key: "failedWindowMinutes",
    label: "Failed, then another card: within",
    unit: "min",
  },
  { env: "EXCEPTIONS_OFF_HOURS", key: "offHoursOn", label: "Night or weekend rule on", unit: "" },
  {
    env: "EXCEPTIONS_CATALOG_PRICE",
    key: "catalogPriceOn",
    label: "Price rule on (customer price at the time)",
    unit: "",
  },
];

let parsed: ExceptionThresholds | undefined;

/** The thresholds from the environment (once per process; a bad value already stopped the server at start). */
export function exceptionThresholds(env: Record<string, string | undefined> = process.env): ExceptionThresholds {
  if (parsed !== undefined && env === process.env) return parsed;
  const e = ExceptionsEnvSchema.parse(env);
  const thresholds = Object.fromEntries(FIELDS.map((f) => [f.key, e[f.env]])) as unknown as ExceptionThresholds;
  if (env === process.env) parsed = thresholds;
  return thresholds;
}

const show = (value: number | boolean, unit: string): string => {
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (unit === "th" || unit === ":00") return `${String(value)}${unit}`;
  return `${String(value)} ${unit}`;
};

export function thresholdTable(thresholds: ExceptionThresholds): ExceptionThreshold[] {
  return FIELDS.map((f) => ({
    env: f.env,
    label: f.label,
    value: show(thresholds[f.key], f.unit),
    defaultValue: show(DEFAULT_EXCEPTION_THRESHOLDS[f.key], f.unit),
  }));
}
