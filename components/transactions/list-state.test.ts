import { describe, expect, it } from "vitest";

import { DEFAULT_LIST_STATE, listStateProblems, parseListState, resolveRange, serializeListState } from "./list-state";

const parse = (query: string) => parseListState(new URLSearchParams(query));

describe("parseListState / serializeListState", () => {
  it("reads the defaults from an empty query and writes them as nothing", () => {
    expect(parse("")).toEqual(DEFAULT_LIST_STATE);
    expect(serializeListState(DEFAULT_LIST_STATE)).toBe("");
  });

  it("round-trips every field", () => {
    const query =
      "range=custom&from=2026-01-01&to=2026-01-31&status=failed&search=Smith&tz=America%2FLos_Angeles&limit=25&page=3";
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
  const at = (range: Parameters<typeof resolveRange>[0]["range"]) =>
    resolveRange({ range, from: null, to: null, tz: "UTC" }, now);

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
    expect(resolveRange({ range: "last-month", from: null, to: null, tz: "UTC" }, january)).toEqual({
      from: "2025-12-01",
      to: "2025-12-31",
    });
    expect(resolveRange({ range: "7d", from: null, to: null, tz: "UTC" }, january)).toEqual({
      from: "2025-12-28",
      to: "2026-01-03",
    });
  });
});

describe("time zones in the view", () => {
  it("reads tz from the URL, else the default zone; writes it whenever days are filtered or it is not the default", () => {
    expect(parseListState(new URLSearchParams(""), "Asia/Tokyo").tz).toBe("Asia/Tokyo");
    expect(parseListState(new URLSearchParams("tz=America/Chicago"), "Asia/Tokyo").tz).toBe("America/Chicago");
    expect(parseListState(new URLSearchParams("tz=Mars/Olympus"), "Asia/Tokyo").tz).toBe("Asia/Tokyo");
    expect(serializeListState({ ...DEFAULT_LIST_STATE, tz: "Asia/Tokyo" }, "Asia/Tokyo")).toBe("");
    expect(serializeListState({ ...DEFAULT_LIST_STATE, tz: "Asia/Tokyo", range: "today" }, "Asia/Tokyo")).toBe(
      "range=today&tz=Asia%2FTokyo",
    );
    expect(serializeListState({ ...DEFAULT_LIST_STATE, tz: "UTC" }, "Asia/Tokyo")).toBe("tz=UTC");
  });

  it("resolves the presets in the view's zone: 'today' at 23:30 UTC is tomorrow in Tokyo, still today in Los Angeles", () => {
    const now = new Date("2026-05-15T23:30:00Z");
    expect(resolveRange({ range: "today", from: null, to: null, tz: "Asia/Tokyo" }, now)).toEqual({
      from: "2026-05-16",
      to: "2026-05-16",
    });
    expect(resolveRange({ range: "today", from: null, to: null, tz: "America/Los_Angeles" }, now)).toEqual({
      from: "2026-05-15",
      to: "2026-05-15",
    });
    // 02:00 UTC on June 1st is still May 31st in Los Angeles: "last month" is April there.
    const june = new Date("2026-06-01T02:00:00Z");
    expect(resolveRange({ range: "last-month", from: null, to: null, tz: "America/Los_Angeles" }, june)).toEqual({
      from: "2026-04-01",
      to: "2026-04-30",
    });
    expect(resolveRange({ range: "this-month", from: null, to: null, tz: "UTC" }, june)).toEqual({
      from: "2026-06-01",
      to: "2026-06-01",
    });
  });
});

describe("listStateProblems", () => {
  const problems = (query: string) => listStateProblems(new URLSearchParams(query), "UTC");

  it("says nothing about a clean link", () => {
    expect(problems("range=custom&from=2026-01-01&to=2026-01-31&status=failed&tz=UTC&page=2")).toEqual([]);
    expect(problems("")).toEqual([]);
  });

  it("says in words what it set aside, a bad end date included", () => {
    expect(problems("from=2026-01-01&to=garbage")).toEqual([
      "The end date “garbage” is not a date written as YYYY-MM-DD; the list has no end date.",
    ]);
    expect(problems("from=2026-02-30")).toEqual([
      "The start date “2026-02-30” is not a day of the calendar; the list has no start date.",
    ]);
    expect(problems("status=settled")).toEqual([
      "“settled” is not a status (completed, pending or failed); the list shows every status.",
    ]);
    expect(problems("tz=Mars%2FOlympus")).toEqual([
      "“Mars/Olympus” is not a time zone this browser knows; days and times are in UTC.",
    ]);
    expect(problems("page=abc&limit=7")).toHaveLength(2);
    for (const message of [...problems("page=abc&limit=7"), ...problems("range=forever")])
      expect(message).not.toMatch(/^\w+: /);
  });

  it("swaps ends given the wrong way round, and says so", () => {
    expect(parse("from=2026-03-05&to=2026-03-01")).toMatchObject({ from: "2026-03-01", to: "2026-03-05" });
    expect(problems("from=2026-03-05&to=2026-03-01")).toEqual([
      "The start date 2026-03-05 was after the end date 2026-03-01; the list shows the days from 2026-03-01 to 2026-03-05.",
    ]);
  });
});
