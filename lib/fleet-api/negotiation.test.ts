import { describe, expect, it } from "vitest";
import { dateBound } from "./negotiation";

describe("dateBound", () => {
  it("sends a UTC date as the date, or as its first/last millisecond", () => {
    expect(dateBound("2026-05-10", "from", "date")).toBe("2026-05-10");
    expect(dateBound("2026-05-10", "from", "datetime")).toBe("2026-05-10T00:00:00Z");
    expect(dateBound("2026-05-10", "to", "datetime")).toBe("2026-05-10T23:59:59.999Z");
  });

  it("sends an instant as it is to a datetime upstream, and as the UTC day covering it to a dates-only one", () => {
    // The first and last millisecond of May 10 in Los Angeles (PDT).
    expect(dateBound("2026-05-10T07:00:00.000Z", "from", "datetime")).toBe("2026-05-10T07:00:00.000Z");
    expect(dateBound("2026-05-11T06:59:59.999Z", "to", "datetime")).toBe("2026-05-11T06:59:59.999Z");
    expect(dateBound("2026-05-10T07:00:00.000Z", "from", "date")).toBe("2026-05-10");
    expect(dateBound("2026-05-11T06:59:59.999Z", "to", "date")).toBe("2026-05-11");
  });
});
