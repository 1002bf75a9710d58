import { describe, expect, it } from "vitest";

import { MAX_RETRY_AFTER_MS, parseRetryAfterMs, parseRetryAfterSeconds } from "./retry-after";

const now = Date.parse("2025-01-06T08:00:00Z");

describe("parseRetryAfterMs", () => {
  it("reads delta-seconds", () => {
    expect(parseRetryAfterMs("23", now)).toBe(23_000);
    expect(parseRetryAfterMs("0", now)).toBe(0);
    expect(parseRetryAfterMs(" 5 ", now)).toBe(5_000);
    expect(parseRetryAfterMs("1.5", now)).toBe(1_500);
  });

  it("reads an HTTP-date in each RFC 9110 form", () => {
    expect(parseRetryAfterMs(new Date(now + 30_000).toUTCString(), now)).toBe(30_000);
    expect(parseRetryAfterMs("Mon, 06 Jan 2025 08:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfterMs("Monday, 06-Jan-25 08:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfterMs("Mon Jan  6 08:00:30 2025", now)).toBe(30_000);
  });

  it("reads a past date as no wait", () => {
    expect(parseRetryAfterMs(new Date(now - 90_000).toUTCString(), now)).toBe(0);
  });

  it("clamps a wait too long to believe, in either form", () => {
    expect(parseRetryAfterMs("3600", now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfterMs(new Date(now + 86_400_000).toUTCString(), now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfterMs("99999999999999999999", now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfterMs("45", now, 30_000)).toBe(30_000);
  });

  it("returns undefined for a missing or unreadable header", () => {
    for (const header of [
      null,
      undefined,
      "",
      "soon",
      "-5",
      "1e3",
      "12 s",
      "Infinity",
      "NaN",
      "Mon, 31 Feb 2025 08:00:00 GMT",
      "Mon, 06 Jan 2025 25:00:00 GMT",
      "2025-01-06T08:00:30Z",
    ]) {
      expect(parseRetryAfterMs(header, now)).toBeUndefined();
    }
  });
});

describe("parseRetryAfterSeconds", () => {
  it("rounds up to whole seconds and keeps the clamp", () => {
    expect(parseRetryAfterSeconds("23", now)).toBe(23);
    expect(parseRetryAfterSeconds("1.2", now)).toBe(2);
    expect(parseRetryAfterSeconds("Mon, 06 Jan 2025 08:00:10 GMT", now)).toBe(10);
    expect(parseRetryAfterSeconds("Mon, 06 Jan 2025 07:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfterSeconds("86400", now)).toBe(MAX_RETRY_AFTER_MS / 1000);
  });

  it("returns undefined for a missing or unreadable header", () => {
    expect(parseRetryAfterSeconds(null, now)).toBeUndefined();
    expect(parseRetryAfterSeconds("soon", now)).toBeUndefined();
  });
});
