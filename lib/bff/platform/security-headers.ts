import "server-only";

import { BASELINE_CONTENT_SECURITY_POLICY } from "./baseline-headers";

/**
 * Security headers for every response of the app: pages get a nonce-based CSP (see `proxy.ts`), data routes a CSP
 * that allows nothing plus `Cache-Control: no-store`. Pure functions; `proxy.ts` applies them.
 */

export interface SecurityHeaderOptions {
  /** The per-request nonce (from `generateNonce`) that Next.js puts on its scripts. */
  nonce?: string;
  /** Origin of the configured map tile server (`tileOriginFromEnv`), allowed in img-src and connect-src. */
  tileOrigin?: string | null;
  isHttps: boolean;
  isDev: boolean;
}

/** Two years: the value hstspreload.org asks for, should the operator ever opt in to preloading. */
const HSTS_MAX_AGE_SECONDS = 63_072_000;
/** 128 bits of randomness per nonce. */
const NONCE_BYTES = 16;
/** What Next.js accepts as a nonce (base64 or base64url, see next/dist/server/app-render/get-script-nonce-from-header). */
const NONCE_PATTERN = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * Powerful features the dashboard never uses are switched off for the page and every frame in it. Geolocation stays
 * available to our own pages ("stations near me" on the map). Only features Chromium knows are listed: an unknown
 * one (e.g. the retired FLoC `interest-cohort`) costs a console error on every page load; `browsing-topics` is
 * FLoC's successor and is what opts the site out of it today.
 */
const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "browsing-topics=()",
  "camera=()",
  "display-capture=()",
  "geolocation=(self)",
  "gyroscope=()",
  "hid=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "serial=()",
  "usb=()",
].join(", ");

/** The CSP of JSON and file responses: nothing in them may load anything, nor be framed (the same as the baseline). */
const API_CONTENT_SECURITY_POLICY = BASELINE_CONTENT_SECURITY_POLICY;

/**
 * The CSP for pages.
 *
 * - script-src: with a nonce, `'strict-dynamic'` lets the nonced Next.js bootstrap load its chunks and nothing else
 *   runs; `'self'` is only a fallback for browsers without CSP 3. Without a nonce (a redirect, which has no body)
 *   it is plain `'self'`, because `'strict-dynamic'` alone would block every script. React needs `'unsafe-eval'` in
 *   development only (it rebuilds server error stacks with eval); never in production.
 * - style-src `'unsafe-inline'`: Leaflet positions tiles and markers with inline `style` attributes and Next.js
 *   renders `style` props and injects `<style>` tags without a nonce. No nonce in style-src on purpose: a browser
 *   that sees a nonce there ignores `'unsafe-inline'`. Inline styles cannot run code, so scripts stay strict.
 * - img-src/connect-src: self plus the tile server when one is configured (and `data:`/`blob:` images: inline icons,
 *   image placeholders, canvas snapshots).
 */
export function contentSecurityPolicy(options: SecurityHeaderOptions): string {
  const tileOrigin = options.tileOrigin ?? null;
  if (tileOrigin !== null && !isCspSafeSource(tileOrigin)) {
    throw new TypeError(
      `The tile origin ${JSON.stringify(tileOrigin)} cannot appear in a CSP: pass the result of tileOriginFromEnv.`,
    );
  }
  const tile = tileOrigin === null ? [] : [tileOrigin];

  const scriptSrc = ["'self'"];
  if (options.nonce !== undefined) {
    if (!NONCE_PATTERN.test(options.nonce)) throw new TypeError("A CSP nonce must be base64 (use generateNonce).");
    scriptSrc.push(`'nonce-${options.nonce}'`, "'strict-dynamic'");
  }
  if (options.isDev) scriptSrc.push("'unsafe-eval'");

  const directives: string[][] = [
    ["default-src", "'self'"],
    ["script-src", ...scriptSrc],
    ["style-src", "'self'", "'unsafe-inline'"],
    ["img-src", "'self'", "data:", "blob:", ...tile],
    ["connect-src", "'self'", ...tile],
    ["font-src", "'self'"],
    ["object-src", "'none'"],
    ["base-uri", "'none'"],
    ["frame-ancestors", "'none'"],
    ["form-action", "'self'"],
  ];
  // Over plain http (local use, a LAN box) upgrading would point the page's own requests at an https that isn't there.
  if (options.isHttps) directives.push(["upgrade-insecure-requests"]);
  return directives.map((directive) => directive.join(" ")).join("; ");
}

/** Headers for every response, whatever its type. */
function baseSecurityHeaders(isHttps: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    // Not `no-referrer`: tile servers (OpenStreetMap's among them) require a Referer. Cross-origin this sends the
    // origin only, never a path or query, which can hold a customer's filters or ids.
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    // For browsers that predate CSP frame-ancestors.
    "X-Frame-Options": "DENY",
  };
  // HSTS over plain http is ignored by browsers at best; at worst it would lock a LAN setup out of http.
  // No `preload`: that is a decision for whoever owns the domain.
  if (isHttps) headers["Strict-Transport-Security"] = `max-age=${String(HSTS_MAX_AGE_SECONDS)}; includeSubDomains`;
  return headers;
}

/** Every header a page response gets, its CSP included. */
export function securityHeaders(
  options: SecurityHeaderOptions,
): Record<string, string> & { "Content-Security-Policy": string } {
  return { ...baseSecurityHeaders(options.isHttps), "Content-Security-Policy": contentSecurityPolicy(options) };
}

/** For data routes (app/api/**): the common headers, a CSP that allows nothing, and no caching anywhere. */
export function apiSecurityHeaders(options: Omit<SecurityHeaderOptions, "nonce">): Record<string, string> {
  return {
    ...baseSecurityHeaders(options.isHttps),
    "Content-Security-Policy": API_CONTENT_SECURITY_POLICY,
    // Responses are per customer and some hold a whole export: no shared or browser cache may keep them.
    "Cache-Control": "no-store",
  };
}

/** A fresh 128-bit nonce, base64. Web Crypto exists in both the Node.js and the edge runtime. */
export function generateNonce(): string {
  const bytes = new Uint8Array(NONCE_BYTES);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The origin of the map tile server from the tile URL template `TILE_URL` (the one the stations page hands the map as
 * a prop at request time; a `NEXT_PUBLIC_` variable would be baked into the build and could drift from the CSP), e.g.
 * `https://tile.example.com/{z}/{x}/{y}.png` → `https://tile.example.com`. Leaflet's subdomain placeholder as the
 * first label (`https://{s}.tile.example.com/…`) becomes a wildcard, `https://*.tile.example.com`. Null when unset,
 * not http(s), or not a URL: the map then uses its own basemap and the CSP allows no tile server.
 */
export function tileOriginFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  const template = (env.TILE_URL ?? "").trim();
  if (template === "") return null;
  let url: URL;
  try {
    url = new URL(template);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username !== "" || url.password !== "") return null;

  const labels = url.hostname.split(".");
  const [first, ...rest] = labels;
  if (first === undefined) return null;
  const isSubdomainPlaceholder = /^\{[a-z]+\}$/i.test(first) && rest.length >= 2;
  const host = isSubdomainPlaceholder ? ["*", ...rest].join(".") : url.hostname;
  const port = url.port === "" ? "" : `:${url.port}`;
  const origin = `${url.protocol}//${host}${port}`;
  return isCspSafeSource(origin) ? origin : null;
}

/** A host-source with nothing that could end a directive or add a source: no spaces, `;`, `,`, quotes or braces. */
function isCspSafeSource(source: string): boolean {
  return (
    /^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i.test(source) ||
    /^https?:\/\/\[[0-9a-f:.]+\](:\d{1,5})?$/i.test(source)
  );
}
