import { describe, expect, it } from "vitest";

import { FleetApiError } from "./errors";
import { checkBaseUrl, isLoopbackHost, pathId } from "./urls";

describe("isLoopbackHost", () => {
  it("knows localhost and literal loopback addresses, not names that merely look like them", () => {
    for (const host of ["localhost", "127.0.0.1", "127.8.9.10", "::1", "[::1]", "0:0:0:0:0:0:0:1"])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ["127.example.com", "10.0.0.5", "::2", "localhost.example.com", ""])
      expect(isLoopbackHost(host)).toBe(false);
  });
});

describe("checkBaseUrl", () => {
  it("takes https anywhere and plain http to this machine only, without a trailing slash", () => {
    expect(checkBaseUrl("https://api.example.com/api/v1/", false)).toBe("https://api.example.com/api/v1");
    expect(checkBaseUrl("http://localhost:4010/api/v1", false)).toBe("http://localhost:4010/api/v1");
    expect(checkBaseUrl("http://10.0.0.5/api/v1", true)).toBe("http://10.0.0.5/api/v1");
  });

  it("refuses what would carry the key pair in clear, or a URL that is not a plain base", () => {
    expect(() => checkBaseUrl("http://api.example.com/api/v1", false)).toThrow(/https/);
    expect(() => checkBaseUrl("https://u:p@api.example.com", false)).toThrow(/user name or password/);
    expect(() => checkBaseUrl("https://api.example.com/api/v1?x=1", false)).toThrow(/query or fragment/);
    expect(() => checkBaseUrl("api.example.com", false)).toThrow(/absolute URL/);
  });
});

describe("pathId", () => {
  it("keeps an id inside one path segment", () => {
    expect(pathId("tx_123")).toBe("tx_123");
    expect(pathId("a/b?c#d%e")).toBe("a%2Fb%3Fc%23d%25e");
  });

  it("answers not_found for ids no upstream could hold, without asking", () => {
    for (const id of ["", ".", "..", "x".repeat(201)]) {
      expect(() => pathId(id)).toThrow(FleetApiError);
      expect(() => pathId(id)).toThrow(/No such item/);
    }
  });
});
