import { z } from "zod";

/**
 * Exact decimals as strings with a fixed number of fraction digits. The browser formats them; nothing sums them
 * as floats (sum them with `addDecimals`, which works in integer minor units).
 */
export const Money = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .describe("US dollars, 2 fraction digits");
export const Volume = z
  .string()
  .regex(/^-?\d+\.\d{3}$/)
  .describe("US gallons, 3 fraction digits");
export const UnitPrice = z
  .string()
  .regex(/^-?\d+\.\d{3}$/)
  .describe("US dollars per gallon, 3 fraction digits");
export type Money = z.infer<typeof Money>;
export type Volume = z.infer<typeof Volume>;
export type UnitPrice = z.infer<typeof UnitPrice>;

export { addDecimals, averagePricePerGallon, fromMinorUnits, toMinorUnits } from "./decimal-math";
