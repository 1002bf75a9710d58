import { describe, expect, it } from "vitest";

import { classifyProduct } from "./product-classes";

describe("classifyProduct", () => {
  it.each([
    ["diesel", "diesel", true],
    ["Diesel #2", "diesel", true],
    ["ULSD", "diesel", true],
    ["B20 biodiesel", "diesel", true],
    ["unleaded", "unleaded", true],
    ["Unleaded 87", "unleaded", true],
    ["Premium", "unleaded", true],
    ["E10", "unleaded", true],
    ["gasoline", "unleaded", true],
    ["DEF", "def", true],
    ["Diesel Exhaust Fluid", "def", true],
    ["AdBlue", "def", true],
    ["propane", "other", true],
    ["CNG", "other", true],
    ["car wash", "other", false],
    ["", "other", false],
    ["defrost spray", "other", false],
  ] as const)("%j is %s (recognised: %s)", (name, productClass, recognised) => {
    expect(classifyProduct(name)).toEqual({ productClass, recognised });
  });
});
