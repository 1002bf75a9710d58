import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { localDateOf, offsetOf } from "./local-days";

/** The cached zone offsets against Intl itself, over random quarter-hour instants and zones with odd offsets and DST. */

const ZONES = [
  "UTC",
  "America/Chicago",
  "America/St_Johns",
  "Europe/London",
  "Asia/Kathmandu",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "America/Santiago",
] as const;

const intlDate = (timeZone: string, ms: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(ms);

describe("local days", () => {
  it("give every instant the calendar date Intl gives it, in zones with DST and with 30- and 45-minute offsets", () => {
    const from = Date.parse("2020-01-01T00:00:00Z");
    const quarters = (10 * 365 * 86_400_000) / 900_000;
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: 0, max: quarters }),
        fc.integer({ min: -1, max: 1 }),
        (zone, q, nudge) => {
          const ms = from + q * 900_000 + nudge;
          expect(localDateOf(zone)(ms)).toBe(intlDate(zone, ms));
        },
      ),
      { numRuns: 3000, seed: 15 },
    );
  });

  it("find the exact quarter hour of a DST change (Chicago, 2026-03-08 08:00 UTC)", () => {
    const change = Date.parse("2026-03-08T08:00:00Z");
    const chicago = offsetOf("America/Chicago");
    expect(chicago(change - 1) / 3_600_000).toBe(-6);
    expect(chicago(change) / 3_600_000).toBe(-5);
  });
});
