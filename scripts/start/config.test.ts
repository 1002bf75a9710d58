import { describe, expect, it } from "vitest";

import { browserHost, parseHost, parsePort, parseUpstream, probeHost } from "./config";

describe("npm start's configuration parsers", () => {
  it("parsePort: blank is the default, 1..65535 is kept, anything else is named in the errors", () => {
    const errors: string[] = [];
    expect(parsePort("PORT", undefined, 3000, errors)).toBe(3000);
    expect(parsePort("PORT", " 8080 ", 3000, errors)).toBe(8080);
    expect(errors).toEqual([]);
    expect(parsePort("PORT", "0", 3000, errors)).toBe(3000);
    expect(parsePort("SANDBOX_PORT", "80a", 4010, errors)).toBe(4010);
    expect(errors).toEqual([
      'PORT must be an integer from 1 to 65535; got "0".',
      'SANDBOX_PORT must be an integer from 1 to 65535; got "80a".',
    ]);
  });

  it("parseHost: addresses and host names pass, URLs and ports do not", () => {
    const errors: string[] = [];
    expect(parseHost(undefined, errors)).toBe("127.0.0.1");
    expect(parseHost("0.0.0.0", errors)).toBe("0.0.0.0");
    expect(parseHost("::1", errors)).toBe("::1");
    expect(parseHost("dash.example", errors)).toBe("dash.example");
    expect(errors).toEqual([]);
    expect(parseHost("http://x", errors)).toBe("127.0.0.1");
    expect(parseHost("host:3000", errors)).toBe("127.0.0.1");
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^HOST must be an address or host name to listen on/);
  });

  it("parseUpstream: blank means the sandbox; only absolute http(s) URLs are accepted", () => {
    const errors: string[] = [];
    expect(parseUpstream("  ", errors)).toBeUndefined();
    expect(parseUpstream("https://api.example/v1", errors)).toBe("https://api.example/v1");
    expect(errors).toEqual([]);
    expect(parseUpstream("api.example", errors)).toBeUndefined();
    expect(parseUpstream("ftp://api.example", errors)).toBeUndefined();
    expect(errors).toEqual([
      'FLEET_API_BASE_URL must be an absolute http(s) URL; got "api.example".',
      'FLEET_API_BASE_URL must use http or https; got "ftp://api.example".',
    ]);
  });

  it("probeHost and browserHost: wildcards are reached on loopback, IPv6 is bracketed, loopback shows as localhost", () => {
    expect(probeHost("0.0.0.0")).toBe("127.0.0.1");
    expect(probeHost("::")).toBe("[::1]");
    expect(probeHost("fd00::5")).toBe("[fd00::5]");
    expect(probeHost("dash.example")).toBe("dash.example");
    expect(browserHost("127.0.0.1")).toBe("localhost");
    expect(browserHost("::1")).toBe("localhost");
    expect(browserHost("0.0.0.0")).toBe("127.0.0.1");
  });
});
