import { describe, expect, it } from "vitest";

import type { ExceptionsReply } from "@/lib/model/insight-exceptions";

import { countChange, previousNote } from "./exception-links";

describe("the previous period's coverage on the exceptions page (review 6)", () => {
  const periods = {
    current: { from: "2026-10-26", to: "2026-11-24" },
    previous: { from: "2026-09-26", to: "2026-10-25" },
  };
  const reply = (previousCoverage: ExceptionsReply["previousCoverage"]) => ({ periods, previousCoverage });

  it("says the previous period cannot be compared yet, with the BFF's sentence, while it is partly loaded", () => {
    const partial = {
      requested: periods.previous,
      covered: { from: "2026-10-06", to: "2026-10-25" },
      complete: false,
      asOf: "2026-11-24T12:00:00.000Z",
      note: "The local copy of your transactions reaches back to 2026-10-06 so far.",
    };
    expect(previousNote(reply(partial))).toEqual({
      ...partial,
      note: "The previous period (2026-09-26 to 2026-10-25) cannot be compared yet. The local copy of your transactions reaches back to 2026-10-06 so far. Its change shows once it is loaded.",
    });
    // The BFF gives no previous count then: the change reads "Not known".
    expect(countChange(5, null)).toBeNull();
  });

  it("says nothing of a whole previous period", () => {
    const whole = { requested: periods.previous, covered: periods.previous, complete: true, asOf: null, note: null };
    expect(previousNote(reply(whole))).toBe(whole);
  });
});
