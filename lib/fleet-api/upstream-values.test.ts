import { describe, expect, it } from "vitest";

import { MONEY_DIGITS, normalizeDecimal, parseTimestamp, UNIT_PRICE_DIGITS, VOLUME_DIGITS } from "./upstream-values";

describe("normalizeDecimal: exact, no float arithmetic, half away from zero", () => {
  it.each<[unknown, number, string]>([
    [475.18, MONEY_DIGITS, "475.18"],
    [0.1 + 0.2, MONEY_DIGITS, "0.30"],
    [1.005, MONEY_DIGITS, "1.01"], // (1.005).toFixed(2) is "1.00": the float is 1.00499…, its shortest text is not
    [2.675, MONEY_DIGITS, "2.68"],
    [3.8495, UNIT_PRICE_DIGITS, "3.850"],
    [3.8494, UNIT_PRICE_DIGITS, "3.849"],
    ["12.3", VOLUME_DIGITS, "12.300"],
    [12, VOLUME_DIGITS, "12.000"],
    ["007.50", MONEY_DIGITS, "7.50"],
    [1e21, MONEY_DIGITS, "1000000000000000000000.00"],
    [1.5e22, VOLUME_DIGITS, "15000000000000000000000.000"],
    [1e-7, MONEY_DIGITS, "0.00"],
    [5e-3, MONEY_DIGITS, "0.01"],
    [-5e-3, MONEY_DIGITS, "-0.01"],
    [-0.005, MONEY_DIGITS, "-0.01"],
    ["-0.0050", MONEY_DIGITS, "-0.01"],
    [-0.004, MONEY_DIGITS, "0.00"],
    [-0, MONEY_DIGITS, "0.00"],
    ["-0.00", MONEY_DIGITS, "0.00"],
    [-43.93, MONEY_DIGITS, "-43.93"],
    ["99999999999999999999.995", MONEY_DIGITS, "100000000000000000000.00"],
    [123456789.1235, VOLUME_DIGITS, "123456789.124"],
  ])("%s with %i digits → %s", (value, digits, expected) => {
    expect(normalizeDecimal(value, digits)).toBe(expected);
  });

  it.each<[string, unknown]>([
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["-Infinity", Number.NEGATIVE_INFINITY],
    ["an empty string", ""],
    ["a blank-padded string", " 1.50"],
    ["an exponent string", "1e3"],
    ["a plus sign", "+1.50"],
    ["a bare fraction", ".5"],
    ["a trailing point", "5."],
    ["a thousands separator", "1,000.00"],
    ["text", "abc"],
    ["an absurdly long string", "1".repeat(41)],
    ["null", null],
    ["undefined", undefined],
    ["a boolean", true],
    ["an object", { amount: 1 }],
  ])("rejects %s", (_label, value) => {
    expect(normalizeDecimal(value, MONEY_DIGITS)).toBeNull();
  });
});

describe("parseTimestamp", () => {
  it.each<[string, string, number | null]>([
    ["2026-11-18T20:32:07Z", "2026-11-18T20:32:07.000Z", null],
    ["2026-11-18T14:32:07-06:00", "2026-11-18T20:32:07.000Z", -360],
    ["2026-11-19T02:02:07+05:30", "2026-11-18T20:32:07.000Z", 330],
    ["2026-11-18T14:32:07.25-0600", "2026-11-18T20:32:07.250Z", -360],
    ["2026-11-18T20:32:07.123999Z", "2026-11-18T20:32:07.123Z", null], // sub-ms digits truncated
    ["2026-11-18T20:32Z", "2026-11-18T20:32:00.000Z", null],
    ["2026-11-18T20:32:07+00:00", "2026-11-18T20:32:07.000Z", 0],
    ["2026-11-18T20:32:07-00:00", "2026-11-18T20:32:07.000Z", 0],
    ["2026-12-31T23:30:00-01:00", "2027-01-01T00:30:00.000Z", -60],
  ])("%s → %s, offset %s", (text, at, offsetMinutes) => {
    expect(parseTimestamp(text)).toEqual({ at, offsetMinutes });
  });

  it.each([
    "2026-11-18T20:32:07",
    "2026-11-18",
    "2026-02-30T10:00:00Z",
    "2026-11-18T24:00:00Z",
    "2026-11-18T20:32:60Z",
    "2026-11-18T20:32:07+24:00",
    "18/11/2026 20:32",
    "",
  ])("rejects %j", (text) => {
    expect(parseTimestamp(text)).toBeNull();
  });

  it("rejects what is not a string", () => {
    expect(parseTimestamp(1763497927000)).toBeNull();
    expect(parseTimestamp(null)).toBeNull();
  });
});
