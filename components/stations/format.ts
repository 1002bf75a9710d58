const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** "just now", "12 min ago", "5 h ago", "3 days ago": how old a price stamp or the catalog is at `now`. */
export function describeAge(iso: string | number, now: number): string {
  const at = typeof iso === "number" ? iso : Date.parse(iso);
  const age = Math.max(0, now - at);
  if (age < MINUTE_MS) return "just now";
  if (age < HOUR_MS) return `${String(Math.floor(age / MINUTE_MS))} min ago`;
  if (age < DAY_MS) return `${String(Math.floor(age / HOUR_MS))} h ago`;
  const days = Math.floor(age / DAY_MS);
  return `${String(days)} ${days === 1 ? "day" : "days"} ago`;
}

/** "$3.459–$3.519" for a legend class (one price when both ends agree). Prices are dollars per gallon. */
export function formatPriceRange(min: number, max: number): string {
  const format = (value: number) => `$${value.toFixed(3)}`;
  return min === max ? format(min) : `${format(min)}–${format(max)}`;
}

/**
 * Brand codes as people say them. `other` is the spec's catch-all: in the primary description independent and regional
 * operators, in the alternative one (which names only `pilot` and `loves`) every other chain too.
 */
const BRAND_NAMES: Readonly<Record<string, string>> = {
  pilot: "Pilot",
  loves: "Love's",
  ta: "TA",
  petro: "Petro",
  flyingj: "Flying J",
  kwiktrip: "Kwik Trip",
  caseys: "Casey's",
  other: "Independent or other chain",
};

/** A chain's name for its code; a code we do not know reads as words ("road_ranger" → "Road Ranger"), never as a code. */
export function brandName(code: string): string {
  const known = BRAND_NAMES[code];
  if (known !== undefined) return known;
  const words = code.replace(/[_-]+/g, " ").trim();
  return words === "" ? "Unknown brand" : words.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase());
}
