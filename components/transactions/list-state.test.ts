import { describe, expect, it } from "vitest";
import { DEFAULT_LIST_STATE, parseListState, resolveRange, serializeListState } from "./list-state";

const parse = (query: string) => parseListState(new URLSearchParams(query));

describe("parseListState / serializeListState", () => {
  it("reads the defaults from an empty query and writes them as nothing", () => {
    expect(parse("")).toEqual(DEFAULT_LIST_STATE);
    expect(serializeListState(DEFAULT_LIST_STATE)).toBe("");
  });

  it("round-trips every field", () => {
    const query = "range=custom&from=2026-01-01&to=2026-01-31&status=failed&search=Smith&limit=25&page=3";
    expect(serializeListState(parse(query))).toBe(query);
  });

  it("falls back to defaults for what it cannot read", () => {
    expect(parse("page=-2&limit=7&status=lost&range=forever&from=2026-13-45")).toEqual(DEFAULT_LIST_STATE);
    expect(parse("page=1.5").page).toBe(1);
  });

  it("treats a link with only from/to as a custom range, and ignores from/to of a preset", () => {
    expect(parse("from=2026-02-01")).toMatchObject({ range: "custom", from: "2026-02-01", to: null });
    expect(parse("range=7d&from=2026-02-01")).toMatchObject({ range: "7d", from: null });
  });
});

describe("resolveRange", () => {
  const now = new Date("2026-05-15T23:30:00Z");
  const at = (range: Parameters<typeof resolveRange>[0]["range"]) => resolveRange({ range, from: null, to: null }, now);

  it("resolves the presets in UTC days, both ends inclusive", () => {
    expect(at("all")).toEqual({ from: null, to: null });
    expect(at("today")).toEqual({ from: "2026-05-15", to: "2026-05-15" });
    expect(at("7d")).toEqual({ from: "2026-05-09", to: "2026-05-15" });
    expect(at("30d")).toEqual({ from: "2026-04-16", to: "2026-05-15" });
    expect(at("this-month")).toEqual({ from: "2026-05-01", to: "2026-05-15" });
    expect(at("last-month")).toEqual({ from: "2026-04-01", to: "2026-04-30" });
    expect(at("this-quarter")).toEqual({ from: "2026-04-01", to: "2026-05-15" });
  });

  it("crosses year ends", () => {
    const january = new Date("2026-01-03T00:00:00Z");
    expect(resolveRange({ range: "last-month", from: null, to: null }, january)).toEqual({ from: "2025-12-01", to: "2025-12-31" });
    expect(resolveRange({ range: "7d", from: null, to: null }, january)).toEqual({ from: "2025-12-28", to: "2026-01-03" });
  });
});
