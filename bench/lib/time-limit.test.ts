import { describe, expect, it } from "vitest";

import { partTimeLimitMs, TimeLimitError, withTimeLimit } from "./time-limit";

describe("withTimeLimit", () => {
  it("passes a result through that comes in time", async () => {
    await expect(withTimeLimit(Promise.resolve(42), 1_000, "x")).resolves.toBe(42);
  });

  it("passes an error through that comes in time", async () => {
    await expect(withTimeLimit(Promise.reject(new Error("broken")), 1_000, "x")).rejects.toThrow("broken");
  });

  it("ends a wait that never finishes with an error naming it", async () => {
    const never = new Promise<never>(() => undefined);
    const result = withTimeLimit(never, 20, "the pages part");
    await expect(result).rejects.toBeInstanceOf(TimeLimitError);
    await expect(result).rejects.toThrow("the pages part did not finish within 0 s");
  });
});

describe("partTimeLimitMs", () => {
  it("bounds smoke parts tightly, full parts loosely, long runs not at all", () => {
    expect(partTimeLimitMs({ smoke: true, long: false })).toBe(5 * 60_000);
    expect(partTimeLimitMs({ smoke: false, long: false })).toBe(45 * 60_000);
    expect(partTimeLimitMs({ smoke: false, long: true })).toBeNull();
  });
});
