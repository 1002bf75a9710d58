/**
 * Part 8: the security headers of every page and data route, and the session cookie's flags, checked against the
 * list of the BFF issue (issue 4, items 1 and 5). The list is written out here on purpose, not imported from
 * lib/bff/platform/security-headers.ts: a check that reused the implementation would agree with it whatever it said.
 * The app runs in its normal configuration (Secure cookie, no SESSION_INSECURE_COOKIE) over http on loopback; HSTS
 * is checked on the same requests sent as a TLS-terminating proxy forwards them (X-Forwarded-Proto: https).
 */
import type { BenchContext } from "../lib/context";

interface Check {
  name: string;
  ok: (headers: Headers) => boolean;
}

const csp = (h: Headers) => h.get("content-security-policy") ?? "";
const directive = (h: Headers, name: string) =>
  csp(h)
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `)) ?? "";
/** Only our own origin (and inline images) may be a source: no wildcard, no other host. */
const onlySelf = (value: string) =>
  value !== "" &&
  value
    .split(/\s+/)
    .slice(1)
    .every((s) => ["'self'", "data:", "blob:"].includes(s));

const COMMON: Check[] = [
  { name: "X-Content-Type-Options: nosniff", ok: (h) => h.get("x-content-type-options") === "nosniff" },
  {
    name: "Referrer-Policy",
    ok: (h) => (h.get("referrer-policy") ?? "") !== "" && h.get("referrer-policy") !== "unsafe-url",
  },
  {
    name: "Permissions-Policy geolocation=(self)",
    ok: (h) => /(^|,\s*)geolocation=\(self\)/.test(h.get("permissions-policy") ?? ""),
  },
  { name: "Cross-Origin-Opener-Policy", ok: (h) => h.get("cross-origin-opener-policy") === "same-origin" },
];
const PAGE: Check[] = [
  ...COMMON,
  { name: "CSP script-src with a nonce", ok: (h) => /'nonce-[A-Za-z0-9+/_=-]+'/.test(directive(h, "script-src")) },
  { name: "CSP object-src 'none'", ok: (h) => directive(h, "object-src") === "object-src 'none'" },
  { name: "CSP base-uri 'none'", ok: (h) => directive(h, "base-uri") === "base-uri 'none'" },
  { name: "CSP frame-ancestors 'none'", ok: (h) => directive(h, "frame-ancestors") === "frame-ancestors 'none'" },
  { name: "CSP img-src self (no tile server configured)", ok: (h) => onlySelf(directive(h, "img-src")) },
  { name: "CSP connect-src self (no tile server configured)", ok: (h) => onlySelf(directive(h, "connect-src")) },
];
const ROUTE: Check[] = [
  ...COMMON,
  { name: "Cache-Control: no-store", ok: (h) => /\bno-store\b/.test(h.get("cache-control") ?? "") },
  { name: "CSP default-src 'none' (or a page CSP)", ok: (h) => csp(h).includes("default-src 'none'") },
];
const HSTS: Check = {
  name: "Strict-Transport-Security (over https)",
  ok: (h) => /max-age=\d{7,}/.test(h.get("strict-transport-security") ?? ""),
};

const COOKIE_LIMIT_BYTES = 4096;

export async function runHeadersPart(ctx: BenchContext): Promise<void> {
  const { app, session } = await ctx.shared();
  const targets: { path: string; kind: "page" | "route"; signedIn: boolean }[] = [
    { path: "/login", kind: "page", signedIn: false },
    { path: "/", kind: "page", signedIn: true },
    { path: "/transactions", kind: "page", signedIn: true },
    { path: "/stations", kind: "page", signedIn: true },
    { path: "/", kind: "page", signedIn: false },
    { path: "/api/session", kind: "route", signedIn: true },
    { path: "/api/account", kind: "route", signedIn: true },
    { path: "/api/transactions?limit=5", kind: "route", signedIn: true },
    { path: "/api/transactions/summary", kind: "route", signedIn: true },
    { path: "/api/locations?limit=5", kind: "route", signedIn: true },
    { path: "/api/account", kind: "route", signedIn: false },
  ];
  for (const target of targets) {
    for (const https of [false, true]) {
      const headers: Record<string, string> = {
        ...(target.signedIn ? { Cookie: session.cookie } : {}),
        ...(https ? { "X-Forwarded-Proto": "https" } : {}),
      };
      const res = await fetch(app.origin + target.path, { headers, redirect: "manual" });
      await res.arrayBuffer();
      // A redirect has no body, so its CSP carries no nonce: its other headers are still checked.
      const checks = (target.kind === "page" ? PAGE : ROUTE).filter(
        (c) => !(res.status >= 300 && res.status < 400 && c.name.startsWith("CSP script-src")),
      );
      const all = https ? [...checks, HSTS] : checks;
      const missing = all.filter((c) => !c.ok(res.headers)).map((c) => c.name);
      ctx.add({
        part: "headers",
        name: `${target.kind} ${target.path}${target.signedIn ? "" : " (signed out)"} ${https ? "behind https" : "over http"} → ${String(res.status)}`,
        value: missing.length === 0 ? "all present" : `missing: ${missing.join("; ")}`,
        goal: { op: "==", target: "all present" },
        note: `checked: ${all.map((c) => c.name).join("; ")}`,
      });
    }
  }

  // The cookie of the normal configuration (what a deployment gets: SESSION_INSECURE_COOKIE unset).
  const attributes = session.setCookie.split(";").map((a) => a.trim());
  const [pair = "", ...flags] = attributes;
  const has = (name: string) => flags.some((f) => f.toLowerCase() === name.toLowerCase());
  const value = (name: string) =>
    flags.find((f) => f.toLowerCase().startsWith(`${name.toLowerCase()}=`))?.split("=")[1];
  const cookieChecks: [string, boolean][] = [
    ["__Host- prefix", pair.startsWith("__Host-")],
    ["HttpOnly", has("HttpOnly")],
    ["Secure", has("Secure")],
    ["SameSite=Lax", (value("SameSite") ?? "").toLowerCase() === "lax"],
    ["Path=/", value("Path") === "/"],
    ["no Domain", value("Domain") === undefined],
    [
      `under ${String(COOKIE_LIMIT_BYTES)} bytes`,
      new TextEncoder().encode(session.setCookie).length < COOKIE_LIMIT_BYTES,
    ],
  ];
  for (const [name, ok] of cookieChecks) {
    ctx.add({
      part: "headers",
      name: `session cookie: ${name}`,
      value: ok ? "yes" : "no",
      goal: { op: "==", target: "yes" },
      note: `Set-Cookie of POST /api/session in the normal configuration (SESSION_INSECURE_COOKIE unset; app on http://127.0.0.1): ${pair.split("=")[0] ?? ""}=…; ${flags.join("; ")}`,
    });
  }
}
