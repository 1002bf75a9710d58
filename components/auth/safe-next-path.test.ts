import { describe, expect, it } from "vitest";

import { safeNextPath } from "./safe-next-path";

describe("safeNextPath", () => {
  it.each([
    ["/", "/"],
    ["/transactions", "/transactions"],
    ["/transactions?status=failed&page=2", "/transactions?status=failed&page=2"],
    ["/stations/123#map", "/stations/123#map"],
    ["/search?q=%2F%2Fevil.example", "/search?q=%2F%2Fevil.example"],
  ])("keeps the same-site path %j", (input, expected) => {
    expect(safeNextPath(input)).toBe(expected);
  });

  it.each([
    [undefined],
    [null],
    [""],
    [["/a", "/b"]],
    ["transactions"],
    ["https://evil.example/"],
    ["//evil.example"],
    ["/\\evil.example"],
    ["/\t/evil.example"],
    ["/\n/evil.example"],
    ["/ /evil.example"],
    ["/a\\b"],
    ["javascript:alert(1)"],
    ["/login"],
    ["/login?next=/x"],
    ["/" + "a".repeat(3000)],
  ])("refuses %j", (input) => {
    expect(safeNextPath(input)).toBe("/");
  });
});
