import { describe, expect, it } from "vitest";

import { isStale, STALE_AFTER_MS } from "./price-age";

describe("isStale", () => {
  it("is stale past two days, or without a stamp", () => {
    const now = Date.parse("2026-01-10T00:00:00Z");
    expect(isStale(new Date(now - STALE_AFTER_MS + 1000).toISOString(), now)).toBe(false);
    expect(isStale(new Date(now - STALE_AFTER_MS - 1000).toISOString(), now)).toBe(true);
    expect(isStale(null, now)).toBe(true);
  });
});
