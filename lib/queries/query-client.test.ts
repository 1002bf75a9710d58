import { describe, expect, it } from "vitest";

import { BffRequestError } from "./fetch-json";
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
