import { describe, expect, it } from "vitest";
import { BffRequestError, parseRetryAfter } from "./fetch-json";
import { shouldRetryQuery } from "./query-client";

const failure = (status: number, code = "x") => new BffRequestError(status, code, "message");

describe("shouldRetryQuery", () => {
  it.each([0, 502, 503])("retries status %i twice at most", (status) => {
    expect(shouldRetryQuery(0, failure(status))).toBe(true);
    expect(shouldRetryQuery(1, failure(status))).toBe(true);
    expect(shouldRetryQuery(2, failure(status))).toBe(false);
  });

  it.each([400, 401, 403, 404, 429, 500])("never retries status %i", (status) => {
    expect(shouldRetryQuery(0, failure(status))).toBe(false);
  });

  it("never retries what is not a BFF failure", () => {
    expect(shouldRetryQuery(0, new TypeError("boom"))).toBe(false);
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("23", now)).toBe(23);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
  });
});
