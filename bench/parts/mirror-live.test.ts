import { describe, expect, it } from "vitest";

import { liveSeedSizes } from "./mirror-live";
import { SMOKE_TRANSACTIONS } from "./sandbox";

describe("the mirror part's live history", () => {
  it("is the sandbox part's smoke history in a smoke run (cached by then, a short backfill), the default otherwise", () => {
    expect(liveSeedSizes({ smoke: true })).toEqual({ transactions: SMOKE_TRANSACTIONS });
    expect(SMOKE_TRANSACTIONS).toBeLessThanOrEqual(5_000);
    expect(liveSeedSizes({ smoke: false })).toEqual({});
  });
});
