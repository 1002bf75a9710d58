import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";

import { config, isStaticFilePath, proxy } from "./proxy";

// proxy.ts applies lib/bff/platform/security-headers.ts to every request it matches (its own tests: security-headers.test.ts).
describe("proxy.ts", () => {
  const nonceOf = (csp: string | null) => /'nonce-([^']+)'/.exec(csp ?? "")?.[1];
  const page = (path: string, init: { cookie?: string; headers?: Record<string, string> } = {}) =>
    new NextRequest(`http://localhost:3456${path}`, {
      headers: { ...init.headers, ...(init.cookie === undefined ? {} : { cookie: init.cookie }) },
    });

  describe("pages", () => {
    it("redirects a page without a session cookie to /login, with the path and query in next", () => {
      const response = proxy(page("/transactions?status=declined&search=a b&x=%2F"));
      expect(response.status).toBe(307);
      const location = new URL(response.headers.get("location") ?? "");
      expect(location.origin + location.pathname).toBe("http://localhost:3456/login");
      expect(location.searchParams.get("next")).toBe("/transactions?status=declined&search=a%20b&x=%2F");
      expect(response.headers.get("location")).toBe(
        "http://localhost:3456/login?next=%2Ftransactions%3Fstatus%3Ddeclined%26search%3Da%2520b%26x%3D%252F",
      );
    });

    it("encodes / as next=%2F", () => {
      expect(proxy(page("/")).headers.get("location")).toBe("http://localhost:3456/login?next=%2F");
    });

    it("never puts another host in next", () => {
      for (const path of ["//evil.example/x", "/\\evil.example"]) {
        const location = proxy(page(path)).headers.get("location") ?? "";
        expect(new URL(location).searchParams.get("next"), path).toBe("/");
      }
    });

    it("still sends the security headers on the redirect, with a CSP that has no nonce", () => {
      const response = proxy(page("/"));
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toContain("script-src 'self';");
      expect(response.headers.get("x-middleware-request-x-nonce")).toBeNull();
    });

    it("does not redirect /login", () => {
      const response = proxy(page("/login?next=%2F"));
      expect(response.headers.get("location")).toBeNull();
      expect(response.headers.get("x-middleware-next")).toBe("1");
      expect(nonceOf(response.headers.get("content-security-policy"))).toBeDefined();
    });

    it("lets a page through with either session cookie name, and ignores an empty one", () => {
      for (const cookie of ["ffd_session=x", "__Host-ffd_session=x", "other=1; ffd_session=sealed"]) {
        expect(proxy(page("/", { cookie })).headers.get("location"), cookie).toBeNull();
      }
      expect(proxy(page("/", { cookie: "ffd_session=" })).status).toBe(307);
      expect(proxy(page("/", { cookie: "session=x" })).status).toBe(307);
    });

    it("sets one fresh nonce in the response CSP and in the forwarded request's CSP and x-nonce", () => {
      const response = proxy(page("/", { cookie: "ffd_session=x" }));
      const nonce = nonceOf(response.headers.get("content-security-policy"));
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      // How NextResponse.next({ request: { headers } }) hands overridden request headers to Next's server.
      expect(response.headers.get("x-middleware-override-headers")?.split(",")).toEqual(
        expect.arrayContaining(["x-nonce", "content-security-policy"]),
      );
      expect(response.headers.get("x-middleware-request-x-nonce")).toBe(nonce);
      expect(response.headers.get("x-middleware-request-content-security-policy")).toBe(
        response.headers.get("content-security-policy"),
      );
      const again = proxy(page("/", { cookie: "ffd_session=x" }));
      expect(nonceOf(again.headers.get("content-security-policy"))).not.toBe(nonce);
    });

    it("keeps the browser's other request headers", () => {
      const response = proxy(page("/", { cookie: "ffd_session=x", headers: { "accept-language": "de" } }));
      expect(response.headers.get("x-middleware-request-accept-language")).toBe("de");
      expect(response.headers.get("x-middleware-request-cookie")).toBe("ffd_session=x");
    });

    it("sends HSTS and upgrade-insecure-requests over https, directly or via X-Forwarded-Proto", () => {
      expect(proxy(page("/", { cookie: "ffd_session=x" })).headers.get("strict-transport-security")).toBeNull();
      const forwarded = proxy(page("/", { cookie: "ffd_session=x", headers: { "x-forwarded-proto": "https" } }));
      expect(forwarded.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
      expect(forwarded.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
      const direct = proxy(
        new NextRequest("https://fleet.example.com/", { headers: { cookie: "__Host-ffd_session=x" } }),
      );
      expect(direct.headers.get("strict-transport-security")).not.toBeNull();
    });
  });

  describe("api routes", () => {
    it("never redirects, with or without a cookie, and sets the data-route headers", () => {
      for (const path of ["/api/session", "/api/transactions?page=2", "/api/locations/abc"]) {
        const response = proxy(page(path));
        expect(response.headers.get("location"), path).toBeNull();
        expect(response.headers.get("x-middleware-next")).toBe("1");
        expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
        expect(response.headers.get("cache-control")).toBe("no-store");
        expect(response.headers.get("x-content-type-options")).toBe("nosniff");
        expect(response.headers.get("x-middleware-request-x-nonce")).toBeNull();
      }
    });
  });

  describe("matcher", () => {
    const matches = (url: string, headers: Record<string, string> = {}) =>
      unstable_doesMiddlewareMatch({ config, url, headers });

    it("runs for pages and data routes", () => {
      for (const url of [
        "/",
        "/login",
        "/transactions",
        "/transactions/tx_123",
        "/stations/st-9?x=1",
        "/api/session",
        "/api/transactions/export",
        "/apiary",
      ]) {
        expect(matches(url), url).toBe(true);
      }
    });

    it("runs for page paths that merely end like a file (they render the dashboard), and for files that do not exist", () => {
      for (const url of [
        "/transactions/x.json",
        "/transactions/x.js",
        "/stations/a.css",
        "/x.svg",
        "/favicon.svg/x",
        "/robots.txt",
        "/marker-icon.png",
        "/states-10m.json",
        "/_next/staticx",
        "/_next/image/x",
        "/basemap",
        "/x/basemap/a.json",
      ]) {
        expect(matches(url), url).toBe(true);
      }
    });

    it("skips image optimisation; runs for the files served as they are only to refuse other methods (GET passes untouched)", () => {
      expect(matches("/_next/image?url=%2Fa.png&w=64&q=75")).toBe(false);
      for (const url of [
        "/_next/static/chunks/main.js",
        "/_next/static/media/inter.woff2",
        "/favicon.svg",
        "/basemap/us-states-10m.json",
      ]) {
        expect(matches(url), url).toBe(true);
        expect(isStaticFilePath(url), url).toBe(true);
        const response = proxy(page(url));
        expect(response.headers.get("x-middleware-next"), url).toBe("1");
        expect(response.headers.get("content-security-policy"), url).toBeNull();
        expect(response.headers.get("location"), url).toBeNull();
        // The refusal writes a request log line, which reads the configuration: a valid one, quiet.
        vi.stubEnv("SANDBOX", "1");
        vi.stubEnv("LOG_LEVEL", "silent");
        const refused = proxy(new NextRequest(`http://localhost:3456${url}`, { method: "OPTIONS" }));
        expect([refused.status, refused.headers.get("allow")], url).toEqual([405, "GET, HEAD"]);
      }
    });

    it("treats every file in public/ as a static file (a new folder must be added to the matcher and isStaticFilePath)", () => {
      const root = fileURLToPath(new URL("./public/", import.meta.url));
      const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const url = `/${relative(root, join(file.parentPath, file.name)).split(sep).join("/")}`;
        expect(matches(url), url).toBe(true);
        expect(isStaticFilePath(url), url).toBe(true);
      }
    });

    it("skips page prefetches but not data-route requests", () => {
      expect(matches("/transactions", { "next-router-prefetch": "1" })).toBe(false);
      expect(matches("/transactions", { purpose: "prefetch" })).toBe(false);
      expect(matches("/api/session", { "next-router-prefetch": "1" })).toBe(true);
    });
  });
});
