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

// Issue 26: a list of times (the overview's latest transactions, a driver's page) formats each row in the preferred
// zone by default; asking the browser's zone built a new Intl.DateTimeFormat each time (127 ms of one long task on
// /transactions at Lighthouse's 4× mobile CPU). The zone is read once per page.
describe("formatting a list of times in the default zone", () => {
  const real = Intl.DateTimeFormat;
  afterEach(() => {
    Intl.DateTimeFormat = real;
    vi.resetModules();
  });

  it("builds no Intl object per row once the first row is formatted", async () => {
    let built = 0;
    // A counting stand-in for the real constructor, callable with `new` or without (as `Intl.DateTimeFormat()` is).
    Intl.DateTimeFormat = new Proxy(real, {
      construct(target, args: ConstructorParameters<typeof real>) {
        built++;
        return new target(...args);
      },
      apply(target, _this, args: ConstructorParameters<typeof real>) {
        built++;
        return new target(...args);
      },
    });
    vi.resetModules();
    const dates = await import("./dates");
    const zones = await import("./time-zone-preference");
    const now = new Date("2026-11-28T12:00:00Z");
    const first = dates.formatDateTime("2026-11-27T14:05:00Z", undefined, now);
    const afterFirst = built;
    const rows = Array.from({ length: 50 }, (_, i) =>
      dates.formatDateTime(`2026-11-${String(1 + (i % 27)).padStart(2, "0")}T14:05:00Z`, undefined, now),
    );
    expect(first).toMatch(/^Nov 27, /);
    expect(rows).toHaveLength(50);
    expect(zones.preferredTimeZone()).toBe(zones.browserTimeZone());
    expect(built).toBe(afterFirst);
  });
});
