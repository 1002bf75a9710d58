import "server-only";

import { isIP } from "node:net";

import { FleetApiError } from "./errors";

/** What goes into an upstream URL: the configured base, and an id as one path segment. */

const MAX_ID_LENGTH = 200;

/** localhost, or a literal loopback address (127.0.0.0/8, ::1) — not a name that merely starts with "127.". */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return isIP(host) === 6 && (host === "::1" || host === "0:0:0:0:0:0:0:1");
}

/** https, or http to loopback only (the local sandbox); never credentials in the URL. */
export function checkBaseUrl(raw: string, allowInsecureHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error("FLEET_API_BASE_URL is not an absolute URL.");
  }
  if (url.username || url.password) throw new Error("FLEET_API_BASE_URL must not contain a user name or password.");
  const isLoopback = isLoopbackHost(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && (isLoopback || allowInsecureHttp))) {
    throw new Error(
      "FLEET_API_BASE_URL must use https (plain http is allowed only to this machine), or the key pair would travel in clear.",
    );
  }
  if (url.search || url.hash) throw new Error("FLEET_API_BASE_URL must not have a query or fragment.");
  return url.toString().replace(/\/+$/, "");
}

/**
 * An id as exactly one path segment: encodeURIComponent escapes "/", "?", "#" and "%"; the dot segments "." and
 * "..", which URL parsing would resolve, and absurdly long ids are refused with not_found without asking the upstream.
 */
export function pathId(id: string): string {
  if (id.length === 0 || id.length > MAX_ID_LENGTH || /^\.{1,2}$/.test(id)) {
    throw new FleetApiError({ status: 404, code: "not_found", message: "No such item." });
  }
  return encodeURIComponent(id);
}
