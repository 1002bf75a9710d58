import "server-only";

/**
 * CSRF defence for the state-changing routes (`POST`/`DELETE /api/session`). Three independent checks, all required:
 *
 * 1. `X-Requested-With: XMLHttpRequest`. A custom header makes any cross-site fetch a CORS preflight, which we never
 *    answer, so a foreign page cannot send it at all (a plain form post cannot set headers).
 * 2. `Origin` equal to our own origin. Browsers send it on every POST/DELETE fetch; `null` (sandboxed frames,
 *    file: pages, cross-site redirects) is refused.
 * 3. `Sec-Fetch-Site`, when the browser sends it, equal to `same-origin`. `same-site` (a sibling subdomain) and
 *    `none` (address bar, bookmark, extension) are refused too: these are JSON endpoints only our own pages call.
 *
 * The session cookie is also SameSite=Lax; these checks do not rely on it.
 */

export const CSRF_HEADER_NAME = "X-Requested-With";
export const CSRF_HEADER_VALUE = "XMLHttpRequest";

export interface CsrfOptions {
  /**
   * Honour `X-Forwarded-Host`/`X-Forwarded-Proto` when working out our own origin. Only behind a reverse proxy that
   * sets (and overwrites) them; otherwise a client could pick the origin it is compared against.
   */
  trustProxy?: boolean;
  /**
   * Further origins under which this same app is served (e.g. its public https name when the proxy rewrites `Host`
   * and `trustProxy` is off). Not a list of partner sites: `Sec-Fetch-Site` must still say `same-origin`.
   */
  allowedOrigins?: readonly string[];
}

/** Longest header value we quote back in a message. */
const MAX_QUOTED_LENGTH = 100;

/**
 * Null when the request is acceptable, else a reason a person can act on, for a 403
 * `{error:{code:"csrf_rejected", message}}`. Applies whatever the method: call it for state-changing routes only.
 */
export function checkCsrf(request: Request, options: CsrfOptions = {}): string | null {
  const ownOrigin = requestOrigin(request, options.trustProxy ?? false);
  const acceptedOrigins = new Set([
    ownOrigin,
    ...(options.allowedOrigins ?? []).flatMap((origin) => normalizeOrigin(origin) ?? []),
  ]);
  const openTheDashboard = `Open the dashboard at ${ownOrigin} and try again.`;

  const requestedWith = request.headers.get(CSRF_HEADER_NAME);
  if (requestedWith?.trim().toLowerCase() !== CSRF_HEADER_VALUE.toLowerCase()) {
    return requestedWith === null
      ? `This request lacks the header ${CSRF_HEADER_NAME}: ${CSRF_HEADER_VALUE} that the dashboard always sends, so it was refused. ${openTheDashboard}`
      : `This request's ${CSRF_HEADER_NAME} header is "${quote(requestedWith)}" instead of ${CSRF_HEADER_VALUE}, so it was refused. ${openTheDashboard}`;
  }

  const origin = request.headers.get("origin");
  if (origin === null) {
    return `This request has no Origin header, so we cannot tell which site sent it and it was refused. Browsers send one with every POST and DELETE; a script must send Origin: ${ownOrigin}.`;
  }
  if (origin.trim() === "null") {
    return `This request came from a page without an origin (Origin: null: a sandboxed frame, a local file or a redirect from another site), so it was refused. ${openTheDashboard}`;
  }
  const normalized = normalizeOrigin(origin);
  if (normalized === null) {
    return `This request's Origin header ("${quote(origin)}") is not an origin like ${ownOrigin}, so it was refused.`;
  }
  if (!acceptedOrigins.has(normalized)) {
    return `This request came from another site (Origin ${normalized}), so it was refused. ${openTheDashboard}`;
  }

  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite !== null && fetchSite.trim().toLowerCase() !== "same-origin") {
    return `${describeFetchSite(fetchSite.trim().toLowerCase())}, so it was refused. ${openTheDashboard}`;
  }
  return null;
}

/**
 * For the data routes (`GET /api/**` behind withSession): a page of another site — or of a sibling subdomain — may
 * navigate a user there (SameSite=Lax sends the cookie on top-level GETs, and `same-site` covers every subdomain of
 * the registrable domain), which would spend the user's request budget. Only `same-origin` (our pages) and `none`
 * (the user typed or bookmarked the address) are accepted; a browser that sends no Sec-Fetch-Site is let through,
 * as in checkCsrf. Null when acceptable, else the reason for a 403 `csrf_rejected`.
 */
export function checkDataRequestSite(request: Request): string | null {
  const fetchSite = request.headers.get("sec-fetch-site")?.trim().toLowerCase();
  if (fetchSite === undefined || fetchSite === "same-origin" || fetchSite === "none") return null;
  return `${describeFetchSite(fetchSite)}, so it was refused: data requests are answered only for the dashboard's own pages. Open the dashboard itself and try again.`;
}

function describeFetchSite(value: string): string {
  switch (value) {
    case "cross-site":
      return "Your browser reports that this request came from another site (Sec-Fetch-Site: cross-site)";
    case "same-site":
      return "Your browser reports that this request came from another site on the same domain (Sec-Fetch-Site: same-site)";
    case "none":
      return "Your browser reports that this request was not made by a dashboard page but typed, bookmarked or sent by an extension (Sec-Fetch-Site: none)";
    default:
      return `Your browser reports an unknown Sec-Fetch-Site ("${quote(value)}") instead of same-origin`;
  }
}

/** scheme://host[:port] of the request as the browser addressed it. */
function requestOrigin(request: Request, trustProxy: boolean): string {
  const url = new URL(request.url);
  if (trustProxy) {
    const host = firstValue(request.headers.get("x-forwarded-host"));
    const proto = firstValue(request.headers.get("x-forwarded-proto"))?.toLowerCase();
    const protocol = proto === "http" || proto === "https" ? `${proto}:` : url.protocol;
    const forwarded = normalizeOrigin(`${protocol}//${host ?? url.host}`);
    // A malformed forwarded host falls back to the URL: the comparison then fails or holds on real data only.
    if (forwarded !== null) return forwarded;
  }
  // The Host header is the origin the browser addressed (Next's request.url may name the server's own hostname,
  // e.g. localhost when the browser used 127.0.0.1); a cross-site page cannot choose it for a victim's browser.
  const host = request.headers.get("host");
  const fromHost = host === null ? null : normalizeOrigin(`${url.protocol}//${host}`);
  return fromHost ?? url.origin;
}

/** `X-Forwarded-*` may list one value per hop; the first is what the client sent to the outermost proxy. */
function firstValue(header: string | null): string | undefined {
  const value = header?.split(",")[0]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/** The canonical serialisation (lower-case host, no default port) of a bare http(s) origin; null otherwise. */
function normalizeOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  // An origin has no credentials, path, query or fragment; `https://a.example/x` is not one.
  const isBare =
    url.username === "" && url.password === "" && url.pathname === "/" && url.search === "" && url.hash === "";
  return isBare ? url.origin : null;
}

/** A header value, safe and short enough to quote in a message. */
function quote(value: string): string {
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  const printable = value.replace(/[\u0000-\u001f\u007f]/g, "");
  return printable.length > MAX_QUOTED_LENGTH ? `${printable.slice(0, MAX_QUOTED_LENGTH)}…` : printable;
}
