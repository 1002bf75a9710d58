import { describe, expect, it } from "vitest";

import { checkCsrf, checkDataRequestSite } from "./csrf";

const URL_OWN = "http://localhost:3000/api/session";

/** A POST as the dashboard's own fetch sends it, with some headers replaced or (null) removed. */
function request(overrides: Record<string, string | null> = {}, { url = URL_OWN, method = "POST" } = {}): Request {
  const headers = new Headers({
    "content-type": "application/json",
    "x-requested-with": "XMLHttpRequest",
    origin: "http://localhost:3000",
    "sec-fetch-site": "same-origin",
  });
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return new Request(url, { method, headers, body: method === "POST" ? "{}" : null });
}

describe("checkCsrf: accepted", () => {
  it("accepts the dashboard's own POST and DELETE", () => {
    expect(checkCsrf(request())).toBeNull();
    expect(checkCsrf(request({}, { method: "DELETE" }))).toBeNull();
  });

  it("accepts a browser that sends no Sec-Fetch-Site (older browsers) when the Origin matches", () => {
    expect(checkCsrf(request({ "sec-fetch-site": null }))).toBeNull();
  });

  it("compares origins canonically (case, default port)", () => {
    expect(checkCsrf(request({ origin: "HTTP://LOCALHOST:3000" }))).toBeNull();
    expect(
      checkCsrf(request({ origin: "https://fleet.example.com:443" }, { url: "https://fleet.example.com/api/session" })),
    ).toBeNull();
  });

  it("accepts an origin from allowedOrigins (the same app under another name)", () => {
    const req = request({ origin: "https://fleet.example.com" }, { url: "http://127.0.0.1:3000/api/session" });
    expect(checkCsrf(req)).toMatch(/another site/);
    expect(checkCsrf(req, { allowedOrigins: ["https://fleet.example.com/"] })).toBeNull();
  });
});

describe("checkCsrf: X-Requested-With", () => {
  it("rejects a request without it, saying which header is missing", () => {
    expect(checkCsrf(request({ "x-requested-with": null }))).toBe(
      "This request lacks the header X-Requested-With: XMLHttpRequest that the dashboard always sends, so it was refused. Open the dashboard at http://localhost:3000 and try again.",
    );
  });

  it("rejects another value", () => {
    expect(checkCsrf(request({ "x-requested-with": "fetch" }))).toMatch(
      /X-Requested-With header is "fetch" instead of XMLHttpRequest/,
    );
  });

  it("is checked even when Origin and Sec-Fetch-Site look right (a form post cannot set it)", () => {
    expect(checkCsrf(request({ "x-requested-with": null }))).not.toBeNull();
  });
});

describe("checkCsrf: Origin", () => {
  it("rejects a missing Origin", () => {
    expect(checkCsrf(request({ origin: null }))).toMatch(
      /^This request has no Origin header, .* a script must send Origin: http:\/\/localhost:3000\.$/,
    );
  });

  it('rejects Origin "null" (sandboxed frame, file page, cross-site redirect)', () => {
    expect(checkCsrf(request({ origin: "null" }))).toMatch(/without an origin \(Origin: null/);
  });

  it("rejects a foreign origin, naming it", () => {
    expect(checkCsrf(request({ origin: "https://evil.example", "sec-fetch-site": "cross-site" }))).toBe(
      "This request came from another site (Origin https://evil.example), so it was refused. Open the dashboard at http://localhost:3000 and try again.",
    );
  });

  it("rejects the same host on another port or scheme", () => {
    expect(checkCsrf(request({ origin: "http://localhost:3001" }))).toMatch(
      /another site \(Origin http:\/\/localhost:3001\)/,
    );
    expect(checkCsrf(request({ origin: "https://localhost:3000" }))).toMatch(
      /another site \(Origin https:\/\/localhost:3000\)/,
    );
    expect(checkCsrf(request({ origin: "http://localhost" }))).toMatch(/another site \(Origin http:\/\/localhost\)/);
  });

  it("rejects a sibling subdomain and a look-alike suffix", () => {
    const url = "https://fleet.example.com/api/session";
    expect(checkCsrf(request({ origin: "https://evil.fleet.example.com" }, { url }))).toMatch(/another site/);
    expect(checkCsrf(request({ origin: "https://fleet.example.com.evil.example" }, { url }))).toMatch(/another site/);
  });

  it("rejects something that is not an origin, quoting it safely", () => {
    expect(checkCsrf(request({ origin: "http://localhost:3000/path" }))).toMatch(
      /is not an origin like http:\/\/localhost:3000/,
    );
    expect(checkCsrf(request({ origin: "garbage" }))).toMatch(/Origin header \("garbage"\) is not an origin/);
    const long = checkCsrf(request({ origin: `x${"a".repeat(500)}` }));
    expect(long?.length).toBeLessThan(300);
  });
});

describe("checkCsrf: Sec-Fetch-Site", () => {
  it("rejects cross-site", () => {
    expect(checkCsrf(request({ "sec-fetch-site": "cross-site" }))).toMatch(
      /came from another site \(Sec-Fetch-Site: cross-site\), so it was refused/,
    );
  });

  it("rejects same-site (a sibling subdomain)", () => {
    expect(checkCsrf(request({ "sec-fetch-site": "same-site" }))).toMatch(/Sec-Fetch-Site: same-site/);
  });

  it("rejects none (typed, bookmarked, an extension): these are fetch-only JSON endpoints", () => {
    expect(checkCsrf(request({ "sec-fetch-site": "none" }))).toMatch(
      /not made by a dashboard page .*Sec-Fetch-Site: none/,
    );
  });

  it("rejects an unknown value", () => {
    expect(checkCsrf(request({ "sec-fetch-site": "whatever" }))).toMatch(/unknown Sec-Fetch-Site \("whatever"\)/);
  });
});

describe("checkCsrf: trustProxy", () => {
  // What the app sees behind a TLS-terminating reverse proxy: its own address, plus the forwarded headers.
  const behindProxy = (overrides: Record<string, string | null> = {}) =>
    request(
      {
        origin: "https://fleet.example.com",
        "x-forwarded-host": "fleet.example.com",
        "x-forwarded-proto": "https",
        ...overrides,
      },
      { url: "http://127.0.0.1:3000/api/session" },
    );

  it("ignores X-Forwarded-* by default: a client must not pick the origin it is compared against", () => {
    expect(checkCsrf(behindProxy())).toMatch(/another site \(Origin https:\/\/fleet\.example\.com\)/);
    const spoofed = request({
      origin: "https://evil.example",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
    });
    expect(checkCsrf(spoofed)).toMatch(/another site \(Origin https:\/\/evil\.example\)/);
  });

  it("honours them when trusted", () => {
    expect(checkCsrf(behindProxy(), { trustProxy: true })).toBeNull();
  });

  it("takes the first value of a list (the outermost proxy)", () => {
    expect(
      checkCsrf(
        behindProxy({ "x-forwarded-host": "fleet.example.com, internal:8080", "x-forwarded-proto": "https,http" }),
        { trustProxy: true },
      ),
    ).toBeNull();
  });

  it("keeps the forwarded port", () => {
    const req = behindProxy({ origin: "https://fleet.example.com:8443", "x-forwarded-host": "fleet.example.com:8443" });
    expect(checkCsrf(req, { trustProxy: true })).toBeNull();
    expect(checkCsrf(behindProxy({ origin: "https://fleet.example.com:8443" }), { trustProxy: true })).toMatch(
      /another site/,
    );
  });

  it("falls back to the URL's scheme without X-Forwarded-Proto, so https and http still differ", () => {
    expect(checkCsrf(behindProxy({ "x-forwarded-proto": null }), { trustProxy: true })).toMatch(
      /another site \(Origin https:\/\/fleet\.example\.com\)/,
    );
    expect(
      checkCsrf(behindProxy({ origin: "http://fleet.example.com", "x-forwarded-proto": null }), { trustProxy: true }),
    ).toBeNull();
  });

  it("still rejects a foreign Origin when trusted", () => {
    expect(checkCsrf(behindProxy({ origin: "https://evil.example" }), { trustProxy: true })).toMatch(
      /another site \(Origin https:\/\/evil\.example\)/,
    );
  });
});

describe("checkDataRequestSite (GET data routes)", () => {
  const get = (fetchSite: string | null) =>
    new Request("http://localhost:3000/api/account", {
      headers: fetchSite === null ? {} : { "sec-fetch-site": fetchSite },
    });

  it("accepts the dashboard's own requests, an address typed or bookmarked, and browsers that send no Sec-Fetch-Site", () => {
    expect(checkDataRequestSite(get("same-origin"))).toBeNull();
    expect(checkDataRequestSite(get("none"))).toBeNull();
    expect(checkDataRequestSite(get(" Same-Origin "))).toBeNull();
    expect(checkDataRequestSite(get(null))).toBeNull();
  });

  it("refuses a sibling subdomain (same-site), another site (cross-site) and anything else, saying why", () => {
    expect(checkDataRequestSite(get("same-site"))).toMatch(
      /another site on the same domain \(Sec-Fetch-Site: same-site\), so it was refused: data requests are answered only for the dashboard's own pages/,
    );
    expect(checkDataRequestSite(get("cross-site"))).toMatch(
      /came from another site \(Sec-Fetch-Site: cross-site\), so it was refused/,
    );
    expect(checkDataRequestSite(get("whatever"))).toMatch(/unknown Sec-Fetch-Site \("whatever"\)/);
    expect(checkDataRequestSite(get(""))).toMatch(/unknown Sec-Fetch-Site/);
  });
});
