/**
 * The headers every response of the app gets from next.config.ts `headers()`, before the proxy runs. A response the
 * proxy skips (build output, public files, page prefetches) keeps them as they are; everything the proxy handles gets
 * its own, stricter-for-its-kind set instead (the proxy's headers replace these, they are not added to them).
 *
 * No "server-only" here: next.config.ts imports this file.
 */

/**
 * The CSP of a response the proxy did not see: nothing in it may load or run anything, nor be framed. Files are not
 * affected (a script or stylesheet is governed by the CSP of the page that loads it); a page rendered without the
 * proxy (a crafted prefetch request, a path the matcher should have caught) stays inert instead of running unguarded.
 */
export const BASELINE_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

export const BASELINE_HEADERS: readonly { key: string; value: string }[] = [
  { key: "Content-Security-Policy", value: BASELINE_CONTENT_SECURITY_POLICY },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];
