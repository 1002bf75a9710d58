import { describe, expect, it } from "vitest";
import { z } from "zod";

import { mirrorShape } from "./mirror-params";

// Review 16 #1: a report's or the data-quality block's link carries a product name as the rows spell it; the list's
// product parameter takes the characters real names use, and refuses anything else with a sentence.
describe("the list's product parameter", () => {
  const schema = z.object(mirrorShape);

  it.each(["Unleaded 87", "ULSD #2", "Misc.", "B20/Bio", "E15+", "diesel_2-x", "87 Octane"])(
    "takes %s, lower-cased",
    (product) => {
      const parsed = schema.safeParse({ product });
      expect(parsed.success).toBe(true);
      expect(parsed.data?.product).toBe(product.toLowerCase());
    },
  );

  it.each(["<script>", "diesel;drop", " leading space", "a".repeat(41), "", "50%"])(
    "refuses %j with a sentence",
    (product) => {
      const parsed = schema.safeParse({ product });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(
        /^The product \(product\) must be a product name such as diesel/,
      );
    },
  );
});
