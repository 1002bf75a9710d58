import type { TruckProfile } from "@/lib/route";

/**
 * The truck of the Route mode: tank, fuel now, MPG, reserve and the value of a driver hour. Remembered in this browser
 * (a dispatcher plans for the same trucks every day); it reaches a link only when the person asks for it
 * (route-view-state.ts). The checks give sentences a person can act on, one per field.
 */

export type TruckField = keyof TruckProfile;
/** The fields as typed: strings, so a half-typed number is kept as it is while its message says what is wrong. */
export type TruckDraft = Record<TruckField, string>;
export type TruckErrors = Partial<Record<TruckField, string>>;

/**
 * Each field's range. The minimums keep the arithmetic sensible: a tank under 1 gal or under 1 mpg is no truck, and
 * would give effective prices like $2e300 per gallon (a link with tank=1e-300 once did).
 */
export const TRUCK_FIELDS: readonly { field: TruckField; label: string; unit: string; min: number; max: number }[] = [
  { field: "tankGallons", label: "Tank size", unit: "gal", min: 1, max: 500 },
  { field: "fuelNowGallons", label: "Gallons now", unit: "gal", min: 0, max: 500 },
  { field: "mpg", label: "Average MPG", unit: "mpg", min: 1, max: 30 },
  { field: "reserveGallons", label: "Reserve to keep", unit: "gal", min: 0, max: 500 },
  { field: "hourlyValue", label: "Value of a driver hour", unit: "$/h", min: 0, max: 1000 },
];

export function truckToDraft(truck: TruckProfile): TruckDraft {
  return {
    tankGallons: String(truck.tankGallons),
    fuelNowGallons: String(truck.fuelNowGallons),
    mpg: String(truck.mpg),
    reserveGallons: String(truck.reserveGallons),
    hourlyValue: String(truck.hourlyValue),
  };
}

/** The truck the draft describes, or null with a message for each field that is wrong. */
export function readTruckDraft(draft: TruckDraft): { truck: TruckProfile | null; errors: TruckErrors } {
  const errors: TruckErrors = {};
  const values: Partial<TruckProfile> = {};
  for (const { field, label, unit, min, max } of TRUCK_FIELDS) {
    const text = draft[field].trim();
    const n = Number(text);
    if (text === "" || !Number.isFinite(n)) errors[field] = `${label} must be a number (${unit}).`;
    else if (n < 0) errors[field] = `${label} cannot be negative.`;
    else if (n < min) errors[field] = `${label} must be at least ${String(min)} ${unit}.`;
    else if (n > max) errors[field] = `${label} must be at most ${String(max)} ${unit}.`;
    else values[field] = n;
  }
  const { tankGallons, fuelNowGallons, reserveGallons } = values;
  if (tankGallons !== undefined && fuelNowGallons !== undefined && fuelNowGallons > tankGallons)
    errors.fuelNowGallons = "Gallons now cannot exceed the tank size.";
  if (tankGallons !== undefined && reserveGallons !== undefined && reserveGallons >= tankGallons)
    errors.reserveGallons = "The reserve must be less than the tank size.";
  if (Object.keys(errors).length > 0) return { truck: null, errors };
  return { truck: values as TruckProfile, errors };
}

/** A stored truck (parsed JSON), checked like a typed one: null when it is not a valid truck. */
export function truckFromStored(value: unknown): TruckProfile | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as Record<string, unknown>;
  const draft = Object.fromEntries(
    TRUCK_FIELDS.map(({ field }) => [field, typeof record[field] === "number" ? String(record[field]) : ""]),
  ) as TruckDraft;
  return readTruckDraft(draft).truck;
}
