import { describe, expect, it } from "vitest";

import {
  apiSecurityHeaders,
  contentSecurityPolicy,
  generateNonce,
  securityHeaders,
  tileOriginFromEnv,
} from "./security-headers";

const TILE = "https://tile.example.com";

/** The CSP as directive name → its sources. */
function parseCsp(csp: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of csp.split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name === undefined || name === "") continue;
    expect(directives.has(name), `directive ${name} appears once`).toBe(false);
    directives.set(name, sources);
  }
  return directives;
}

describe("contentSecurityPolicy", () => {
  it("has every directive of the page policy, and the nonce in script-src only", () => {
    const csp = parseCsp(contentSecurityPolicy({ nonce: "abc123+/==", tileOrigin: null, isHttps: true, isDev: false }));
    expect(Object.fromEntries(csp)).toEqual({
      "default-src": ["'self'"],
      "script-src": ["'self'", "'nonce-abc123+/=='", "'strict-dynamic'"],
      "style-src": ["'self'", "'unsafe-inline'"],
      "img-src": ["'self'", "data:", "blob:"],
      "connect-src": ["'self'"],
      "font-src": ["'self'"],
      "object-src": ["'none'"],
      "base-uri": ["'none'"],
      "frame-ancestors": ["'none'"],
      "form-action": ["'self'"],
      "upgrade-insecure-requests": [],
    });
  });

  it("keeps the nonce out of style-src, where it would switch 'unsafe-inline' off", () => {
    const csp = parseCsp(contentSecurityPolicy({ nonce: "n0nce", isHttps: false, isDev: false }));
    expect(csp.get("style-src")?.some((source) => source.startsWith("'nonce-"))).toBe(false);
  });

  it("adds the tile origin to img-src and connect-src and nowhere else", () => {
    const csp = parseCsp(contentSecurityPolicy({ nonce: "n0nce", tileOrigin: TILE, isHttps: true, isDev: false }));
    expect(csp.get("img-src")).toEqual(["'self'", "data:", "blob:", TILE]);
    expect(csp.get("connect-src")).toEqual(["'self'", TILE]);
    const elsewhere = [...csp].filter(
      ([name, sources]) => name !== "img-src" && name !== "connect-src" && sources.includes(TILE),
    );
    expect(elsewhere).toEqual([]);
  });

  it("upgrades insecure requests only over https", () => {
    expect(
      parseCsp(contentSecurityPolicy({ nonce: "n", isHttps: true, isDev: false })).has("upgrade-insecure-requests"),
    ).toBe(true);
    expect(
      parseCsp(contentSecurityPolicy({ nonce: "n", isHttps: false, isDev: false })).has("upgrade-insecure-requests"),
    ).toBe(false);
  });

  it("allows 'unsafe-eval' in development only", () => {
    expect(parseCsp(contentSecurityPolicy({ nonce: "n", isHttps: false, isDev: true })).get("script-src")).toEqual([
      "'self'",
      "'nonce-n'",
      "'strict-dynamic'",
      "'unsafe-eval'",
    ]);
    expect(contentSecurityPolicy({ nonce: "n", isHttps: false, isDev: false })).not.toContain("unsafe-eval");
  });

  it("without a nonce falls back to script-src 'self' (strict-dynamic alone would block every script)", () => {
    expect(parseCsp(contentSecurityPolicy({ isHttps: false, isDev: false })).get("script-src")).toEqual(["'self'"]);
  });

  it("refuses a nonce or tile origin that could inject a directive", () => {
    expect(() => contentSecurityPolicy({ nonce: "x'; script-src *", isHttps: false, isDev: false })).toThrow(/base64/);
    expect(() =>
      contentSecurityPolicy({
        nonce: "n",
        tileOrigin: "https://a.example; script-src *",
        isHttps: false,
        isDev: false,
      }),
    ).toThrow(/tile origin/);
  });
});

describe("securityHeaders", () => {
  it("sets the common headers and the page CSP", () => {
    const headers = securityHeaders({ nonce: "n0nce", tileOrigin: TILE, isHttps: true, isDev: false });
    expect(headers).toMatchObject({
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Resource-Policy": "same-origin",
      "X-Frame-Options": "DENY",
      "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
    });
    expect(headers["Content-Security-Policy"]).toBe(
      contentSecurityPolicy({ nonce: "n0nce", tileOrigin: TILE, isHttps: true, isDev: false }),
    );
  });

  it("allows geolocation to our own pages only and switches off the rest", () => {
    const policy = securityHeaders({ isHttps: false, isDev: false })["Permissions-Policy"] ?? "";
    const features = new Map(policy.split(",").map((entry) => entry.trim().split("=") as [string, string]));
    expect(features.get("geolocation")).toBe("(self)");
    for (const feature of ["camera", "microphone", "payment", "usb", "browsing-topics"])
      expect(features.get(feature), feature).toBe("()");
    expect([...features.values()].filter((value) => value !== "()")).toEqual(["(self)"]);
  });

  it("sends HSTS only over https", () => {
    expect(securityHeaders({ isHttps: false, isDev: false })).not.toHaveProperty("Strict-Transport-Security");
    expect(securityHeaders({ isHttps: true, isDev: false })).toHaveProperty("Strict-Transport-Security");
  });
});

describe("apiSecurityHeaders", () => {
  it("has the common headers, a CSP that allows nothing, and no-store", () => {
    const headers = apiSecurityHeaders({ tileOrigin: TILE, isHttps: true, isDev: false });
    expect(headers["Content-Security-Policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(headers["Cache-Control"]).toBe("no-store");
    const common = securityHeaders({ isHttps: true, isDev: false });
    for (const name of [
      "X-Content-Type-Options",
      "Referrer-Policy",
      "Permissions-Policy",
      "Cross-Origin-Opener-Policy",
      "Cross-Origin-Resource-Policy",
      "X-Frame-Options",
      "Strict-Transport-Security",
    ]) {
      expect(headers[name], name).toBe(common[name]);
    }
  });

  it("sends HSTS only over https", () => {
    expect(apiSecurityHeaders({ isHttps: false, isDev: false })).not.toHaveProperty("Strict-Transport-Security");
  });
});

describe("generateNonce", () => {
  it("is 128 bits of base64, different every time", () => {
    const nonces = new Set(Array.from({ length: 1000 }, () => generateNonce()));
    expect(nonces.size).toBe(1000);
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    }
  });

  it("is accepted by contentSecurityPolicy", () => {
    const nonce = generateNonce();
    expect(contentSecurityPolicy({ nonce, isHttps: false, isDev: false })).toContain(`'nonce-${nonce}'`);
  });
});

describe("tileOriginFromEnv", () => {
  it("takes the origin of the URL template", () => {
    expect(tileOriginFromEnv({ TILE_URL: "https://tile.example.com/{z}/{x}/{y}.png" })).toBe(TILE);
    expect(tileOriginFromEnv({ TILE_URL: "HTTPS://Tile.Example.COM:8443/tiles/{z}/{x}/{y}.png?key=abc" })).toBe(
      "https://tile.example.com:8443",
    );
    expect(tileOriginFromEnv({ TILE_URL: "http://10.0.0.5:8080/{z}/{x}/{y}.png" })).toBe("http://10.0.0.5:8080");
  });

  it("reads TILE_URL only, the template the stations page hands the map (a NEXT_PUBLIC_ copy could drift from the CSP)", () => {
    expect(
      tileOriginFromEnv({
        NEXT_PUBLIC_TILE_URL: "https://public.example.com/{z}/{x}/{y}.png",
        TILE_URL: "https://server.example.com/{z}/{x}/{y}.png",
      }),
    ).toBe("https://server.example.com");
    expect(tileOriginFromEnv({ NEXT_PUBLIC_TILE_URL: "https://public.example.com/{z}/{x}/{y}.png" })).toBeNull();
  });

  it("turns Leaflet's subdomain placeholder into a wildcard", () => {
    expect(tileOriginFromEnv({ TILE_URL: "https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png" })).toBe(
      "https://*.tile.openstreetmap.org",
    );
  });

  it("is null when unset, blank or invalid", () => {
    for (const value of [
      undefined,
      "",
      "   ",
      "not a url",
      "/tiles/{z}/{x}/{y}.png",
      "ftp://tile.example.com/{z}.png",
      "javascript:alert(1)",
      "https://user:pw@tile.example.com/{z}.png",
      "https://a{s}b.example.com/{z}.png",
      "https://{s}.com/{z}.png",
    ]) {
      expect(tileOriginFromEnv({ TILE_URL: value }), String(value)).toBeNull();
    }
  });
});
