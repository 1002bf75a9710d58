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
