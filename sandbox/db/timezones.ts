/**
 * Station-local UTC offsets, so `transaction_at` carries the offset a real card terminal would report.
 * One IANA zone per state (the zone most of the state's area uses); offsets come from Intl (full ICU ships with
 * Node) and are cached by (zone, UTC hour) because seeding a million rows must not call Intl a million times.
 */
const STATE_ZONES: Readonly<Record<string, string>> = {
  AL: "America/Chicago",
  AZ: "America/Phoenix",
  AR: "America/Chicago",
  CA: "America/Los_Angeles",
  CO: "America/Denver",
  CT: "America/New_York",
  DE: "America/New_York",
  DC: "America/New_York",
  FL: "America/New_York",
  GA: "America/New_York",
  ID: "America/Boise",
  IL: "America/Chicago",
  IN: "America/Indiana/Indianapolis",
  IA: "America/Chicago",
  KS: "America/Chicago",
  KY: "America/New_York",
  LA: "America/Chicago",
  ME: "America/New_York",
  MD: "America/New_York",
  MA: "America/New_York",
  MI: "America/Detroit",
  MN: "America/Chicago",
  MS: "America/Chicago",
  MO: "America/Chicago",
  MT: "America/Denver",
  NE: "America/Chicago",
  NV: "America/Los_Angeles",
  NH: "America/New_York",
  NJ: "America/New_York",
  NM: "America/Denver",
  NY: "America/New_York",
  NC: "America/New_York",
  ND: "America/Chicago",
  OH: "America/New_York",
  OK: "America/Chicago",
  OR: "America/Los_Angeles",
  PA: "America/New_York",
  RI: "America/New_York",
  SC: "America/New_York",
  SD: "America/Chicago",
  TN: "America/Chicago",
  TX: "America/Chicago",
  UT: "America/Denver",
  VT: "America/New_York",
  VA: "America/New_York",
  WA: "America/Los_Angeles",
  WV: "America/New_York",
  WI: "America/Chicago",
  WY: "America/Denver",
  AK: "America/Anchorage",
  HI: "Pacific/Honolulu",
};

const formatters = new Map<string, Intl.DateTimeFormat>();
const cache = new Map<string, number>();

/** Minutes east of UTC for the station's state at the given instant (epoch seconds). */
export function offsetMinutes(state: string, epochSeconds: number): number {
  const zone = STATE_ZONES[state] ?? "America/Chicago";
  const hour = Math.floor(epochSeconds / 3600);
  const key = `${zone}@${String(hour)}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let fmt = formatters.get(zone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
    formatters.set(zone, fmt);
  }
  const name = fmt.formatToParts(new Date(hour * 3600 * 1000)).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  const minutes = match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  cache.set(key, minutes);
  return minutes;
}

/** ISO 8601 with an explicit offset, seconds precision: 2026-03-01T14:22:05-06:00. Offset 0 renders as +00:00. */
export function isoWithOffset(epochSeconds: number, offsetMin: number): string {
  const local = new Date((epochSeconds + offsetMin * 60) * 1000).toISOString().slice(0, 19);
  const sign = offsetMin < 0 ? "-" : "+";
  const abs = Math.abs(offsetMin);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** ISO 8601 UTC with Z, seconds precision. */
export function isoUtc(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}
