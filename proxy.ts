import { type NextRequest, NextResponse, type ProxyConfig } from "next/server";

import { logger } from "@/lib/bff/platform/log";
import {
  apiSecurityHeaders,
  generateNonce,
  securityHeaders,
  tileOriginFromEnv,
} from "@/lib/bff/platform/security-headers";

/**
 * Runs before pages and data routes (Next 16's successor to middleware.ts):
 * - pages get a fresh CSP nonce (Next.js reads it from the request's CSP header and puts it on its own scripts),
 *   the page CSP and the security headers; without a session cookie they redirect to /login?next=<path+query>;
 * - /api/** gets the data-route headers and is never redirected;
 * - the files served as they are (build output under /_next/static/, the files of public/) pass untouched on GET and
 *   HEAD, and any other method gets 405 with `Allow: GET, HEAD`, logged as a request line. Without this, Next answers
 *   those methods on a file with a 500 that no log shows (it renders a "/405" error page the App Router does not
 *   have). TRACE never gets here: Next fails to build a Request for it and answers 500 before any proxy runs.
 *
 * The redirect is a convenience only: a cookie's presence says nothing about its validity, and every route handler
 * checks the session itself.
 */

/** Both names the session cookie can have (`__Host-` when Secure); must match lib/bff/platform/config.ts. */
const SESSION_COOKIE_NAMES = ["__Host-ffd_session", "ffd_session"] as const;
const LOGIN_PATH = "/login";
const FILE_METHODS = "GET, HEAD";

/** Build output and the files of public/ (keep in step with the matcher's entries below and the page entry's skips). */
export function isStaticFilePath(pathname: string): boolean {
  return pathname.startsWith("/_next/static/") || pathname === "/favicon.svg" || pathname.startsWith("/basemap/");
}

export function proxy(request: NextRequest): NextResponse {
  const { pathname, search } = request.nextUrl;
  const isHttps = request.nextUrl.protocol === "https:" || forwardedProto(request) === "https";
  const isDev = process.env.NODE_ENV === "development";
  const tileOrigin = tileOriginFromEnv(process.env);

  if (isStaticFilePath(pathname)) {
    if (request.method === "GET" || request.method === "HEAD") return NextResponse.next();
    return methodNotAllowed(request, apiSecurityHeaders({ tileOrigin, isHttps, isDev }));
  }

  if (isApiPath(pathname)) {
    return withHeaders(NextResponse.next(), apiSecurityHeaders({ tileOrigin, isHttps, isDev }));
  }

  if (pathname !== LOGIN_PATH && !hasSessionCookie(request)) {
    const login = new URL(LOGIN_PATH, request.url);
    login.searchParams.set("next", safeNextPath(pathname + search));
    // No body, so no scripts: the CSP without a nonce.
    return withHeaders(NextResponse.redirect(login), securityHeaders({ tileOrigin, isHttps, isDev }));
  }

  const nonce = generateNonce();
  const headers = securityHeaders({ nonce, tileOrigin, isHttps, isDev });
  // As the Next.js CSP guide does: the CSP goes on the forwarded request too, which is where the renderer looks for
  // the nonce; x-nonce is for our own code (`(await headers()).get("x-nonce")`, e.g. for next/script).
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]);
  return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), headers);
}

export const config: ProxyConfig = {
  matcher: [
    // Pages: everything except data routes and the real static paths — build output (/_next/static/), image
    // optimisation (/_next/image), the dev server's HMR socket and the files of public/ (favicon.svg, basemap/). Not
    // "anything ending in .json or .js": /transactions/x.json is a page path and must get the CSP and the sign-in
    // redirect. A new file or folder in public/ must be added
    // here (a test checks every file of public/ is skipped; Next reads this config statically, so it stays a literal). Prefetches are skipped as the Next.js CSP guide
    // recommends: the navigation that follows passes through here anyway. What skips the proxy keeps the baseline
    // headers of next.config.ts (a CSP that allows nothing).
    {
      source: "/((?!api(?:/|$)|_next/static/|_next/image$|_next/webpack-hmr$|favicon\\.svg$|basemap/).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
    // Data routes: headers only.
    "/api/:path*",
    // The files served as they are: only to answer methods other than GET and HEAD with 405 (isStaticFilePath).
    "/_next/static/:path*",
    "/favicon.svg",
    "/basemap/:path*",
  ],
};

/** 405 for a method a file does not take, with a request log line (the app's other 4xx are logged the same way). */
function methodNotAllowed(request: NextRequest, headers: Record<string, string>): NextResponse {
  logger().info(
    { route: "static file", method: request.method, path: request.nextUrl.pathname, status: 405 },
    "request",
  );
  const response = new NextResponse(
    `This file can only be read (${FILE_METHODS}); ${request.method} is not allowed.\n`,
    {
      status: 405,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    },
  );
  return withHeaders(response, { ...headers, Allow: FILE_METHODS });
}

function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}

function hasSessionCookie(request: NextRequest): boolean {
  return SESSION_COOKIE_NAMES.some((name) => (request.cookies.get(name)?.value ?? "") !== "");
}

/** The first hop's scheme as a TLS-terminating proxy reports it. Only used to choose headers, never to trust. */
function forwardedProto(request: NextRequest): string | undefined {
  return request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
}

/**
 * The path to return to after signing in. Always a same-origin path: `//evil.example` or `/\evil.example` would be
 * read by a browser as another host, so the login page could be turned into an open redirect.
 */
function safeNextPath(pathAndQuery: string): string {
  return /^\/(?![/\\])/.test(pathAndQuery) ? pathAndQuery : "/";
}

function withHeaders(response: NextResponse, headers: Record<string, string>): NextResponse {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
