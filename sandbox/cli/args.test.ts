import { describe, expect, it } from "vitest";

import { fraction, int, profileOf, UsageError } from "./args";

describe("the sandbox CLI's argument parsers", () => {
  it("int: absent is undefined, a whole number in range is kept, anything else names the flag and the range", () => {
    expect(int("port", undefined, 0, 65_535)).toBeUndefined();
    expect(int("port", "4010", 0, 65_535)).toBe(4010);
    expect(() => int("port", "99999", 0, 65_535)).toThrow(
      new UsageError('--port must be a whole number from 0 to 65535 (got "99999")'),
    );
    expect(() => int("count", "1.5", 1, 10)).toThrow(UsageError);
    expect(() => int("count", "-1", 1, 10)).toThrow(UsageError);
  });

  it("fraction: absent is 0, 0 to 1 is kept, anything else is a usage error", () => {
    expect(fraction("fault-error-rate", undefined)).toBe(0);
    expect(fraction("fault-error-rate", "0.25")).toBe(0.25);
    expect(fraction("fault-error-rate", ".5")).toBe(0.5);
    expect(() => fraction("fault-error-rate", "2")).toThrow(
      new UsageError('--fault-error-rate must be a fraction from 0 to 1 (got "2")'),
    );
    expect(() => fraction("fault-error-rate", "-0.1")).toThrow(UsageError);
  });

  it("profileOf: primary by default, the two profiles by name, nothing else", () => {
    expect(profileOf(undefined)).toBe("primary");
    expect(profileOf("alternative")).toBe("alternative");
    expect(() => profileOf("beta")).toThrow(new UsageError('--profile must be primary or alternative (got "beta")'));
  });
});
