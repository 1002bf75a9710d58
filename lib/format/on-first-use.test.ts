import { afterEach, describe, expect, it, vi } from "vitest";

import { onFirstUse } from "./on-first-use";

describe("onFirstUse", () => {
  it("builds the value on the first call only", () => {
    const make = vi.fn(() => ({ n: 1 }));
    const get = onFirstUse(make);
    expect(make).not.toHaveBeenCalled();
    expect(get()).toBe(get());
    expect(make).toHaveBeenCalledTimes(1);
  });
});

// Issue 14 item 7: the page's first Intl object costs ~10–15 ms of main thread; loading the formats (every page does)
// must not pay it, only formatting does.
describe("the formats of lib/format", () => {
  const real = { NumberFormat: Intl.NumberFormat, DateTimeFormat: Intl.DateTimeFormat };
  afterEach(() => {
    Object.assign(Intl, real);
    vi.resetModules();
  });

  it("build no Intl object when their modules load, and each format once when first used", async () => {
    // Counting subclasses in place of the real constructors (a spy would not be constructible).
    const built = { numbers: 0, dates: 0 };
    Intl.NumberFormat = class extends real.NumberFormat {
      constructor(...args: ConstructorParameters<typeof real.NumberFormat>) {
        super(...args);
        built.numbers++;
      }
    } as typeof Intl.NumberFormat;
    Intl.DateTimeFormat = class extends real.DateTimeFormat {
      constructor(...args: ConstructorParameters<typeof real.DateTimeFormat>) {
        super(...args);
        built.dates++;
      }
    } as typeof Intl.DateTimeFormat;
    vi.resetModules();
    const numbers = await import("./numbers");
    const dates = await import("./dates");
    await import("./ages");
    expect(built.numbers).toBe(0);
    expect(built.dates).toBe(0);

    expect(numbers.formatCount(1234)).toBe("1,234");
    expect(numbers.formatCount(5678)).toBe("5,678");
    expect(built.numbers).toBe(1);
    expect(dates.formatDay("2026-03-04")).toBe("Mar 4");
    expect(dates.formatDay("2026-03-05")).toBe("Mar 5");
    expect(built.dates).toBe(1);
  });
});
