import "server-only";

import type { PairVerdict } from "./credential-checks";
import type { Credentials } from "./credentials";
import { FleetApiError } from "./errors";
import { replyError, type UpstreamReply } from "./http";

/** A 401 that blames the caller's address rather than the key (the alternative description's allow-list rule). */
const ADDRESS_REFUSAL = /allow-?list|(?:your|this|caller'?s?|client'?s?) (?:ip )?address/i;

/** What a reply to a key-pair check says about the pair; undefined when it says nothing (429, 5xx, 404…). */
export function judgeCheck(reply: UpstreamReply, credentials: Credentials, nowMs: number): PairVerdict | undefined {
  if (reply.status >= 200 && reply.status < 300) return { kind: "verified" };
  const error = upstreamError(reply, credentials, nowMs);
  if (error.code === "scope_denied") return { kind: "verified" }; // the pair is valid; it only lacks a scope
  if (error.code === "address_refused") return { kind: "address_refused", message: error.message };
  if (error.code === "unauthenticated" || error.code === "invalid_credentials" || error.code === "bad_request")
    return { kind: "refused", code: error.code, message: error.message };
  return undefined;
}

/** The reply's error, the secret redacted; a 401 that blames the caller's address becomes `address_refused`. */
export function upstreamError(reply: UpstreamReply, credentials: Credentials, nowMs: number): FleetApiError {
  const error = redact(replyError(reply, nowMs), credentials);
  if (reply.status !== 401 || !ADDRESS_REFUSAL.test(error.message)) return error;
  return new FleetApiError({ status: 401, code: "address_refused", message: error.message });
}

/** POST /auth could not be used at all (as opposed to: it said the credentials are wrong). */
export function isAuthUnavailable(error: FleetApiError): boolean {
  // A verdict on the credentials is never "unavailable", whatever status carries it (invalid_credentials has none fixed).
  if (
    error.code === "invalid_credentials" ||
    error.code === "unauthenticated" ||
    error.code === "bad_request" ||
    error.code === "scope_denied"
  )
    return false;
  return (
    error.code === "network_error" ||
    error.code === "timeout" ||
    [404, 405, 500, 501, 502, 503, 504].includes(error.status)
  );
}

/** An upstream message that echoes the secret (a provider repeating the request) must not carry it further. */
function redact(error: FleetApiError, credentials: Credentials): FleetApiError {
  if (credentials.secret.length === 0 || !error.message.includes(credentials.secret)) return error;
  return new FleetApiError({
    status: error.status,
    code: error.code,
    message: error.message.split(credentials.secret).join("[redacted]"),
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    ...(error.field !== undefined ? { field: error.field } : {}),
    ...(error.scope !== undefined ? { scope: error.scope } : {}),
  });
}
