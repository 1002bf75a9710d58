import "server-only";

import { FleetApiError } from "@/lib/fleet-api";

/** The one error shape of the BFF: `{ error: { code, message } }`, with the status that fits. */
const BFF_ERROR_STATUS = {
  bad_request: 400,
  unauthenticated: 401,
  session_ended: 401,
  invalid_credentials: 401,
  csrf_rejected: 403,
  address_refused: 403,
  scope_denied: 403,
  not_found: 404,
  // A filter only the local copy (the mirror) can answer, asked before that copy covers the range.
  mirror_needed: 409,
  payload_too_large: 413,
  rate_limited: 429,
  // Our own bound (exports, summaries running at once for a session or key), not the upstream's budget.
  too_many_running: 429,
  upstream_unavailable: 502,
  upstream_invalid: 502,
  // Redis (REDIS_URL: the state instances share) is not answering where acting without it could break a guarantee
  // (the provider's budget, a signed-out session, the sign-in limiter): refused, fail closed. Also the mirror's
  // database (PostgreSQL with DATABASE_URL) not answering a route that reads it; the message names which.
  shared_state_unavailable: 503,
  internal_error: 500,
} as const;
export type BffErrorCode = keyof typeof BFF_ERROR_STATUS;

export class BffError extends Error {
  readonly status: number;
  constructor(
    readonly code: BffErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "BffError";
    this.status = BFF_ERROR_STATUS[code];
  }
}

export function errorResponse(error: BffError, extraHeaders: Record<string, string> = {}): Response {
  return Response.json(
    { error: { code: error.code, message: error.message } },
    { status: error.status, headers: { ...extraHeaders, ...error.headers } },
  );
}

const ADDRESS_REFUSED_MESSAGE =
  "The Fleet Fuel API refused this key from this server's address: its allow-list must include the dashboard server. Ask your Fleet Fuel administrator to add it.";

const RESOURCE_NAMES: Record<string, string> = {
  read: "read",
  account: "account",
  transactions: "transactions",
  locations: "locations",
};

/** An upstream failure as what a person can act on. Never the upstream's raw body, never a secret. */
export function fromUpstream(error: FleetApiError): BffError {
  switch (error.code) {
    case "unauthenticated":
    case "invalid_credentials":
      return new BffError(
        "session_ended",
        "The Fleet Fuel API no longer accepts this key (it may have been revoked). Please sign in again.",
      );
    case "address_refused":
      // The key may be fine: the provider refuses it from this server's address. Signing in again cannot help.
      return new BffError("address_refused", ADDRESS_REFUSED_MESSAGE);
    case "too_many_failed_checks": {
      const seconds = error.retryAfterSeconds ?? 60;
      return new BffError(
        "rate_limited",
        `Too many failed key checks (wrong or revoked keys) reached the Fleet Fuel API from this dashboard in the last minute. To keep signing in working for everyone, please wait ${String(seconds)} s and try again.`,
        { "Retry-After": String(seconds) },
      );
    }
    case "scope_denied": {
      const scope = error.scope === undefined ? "a needed" : `the ${RESOURCE_NAMES[error.scope] ?? error.scope}`;
      return new BffError(
        "scope_denied",
        `Your API key lacks ${scope} scope${error.scope === "read" ? " for this data" : ""}. Ask your Fleet Fuel administrator for a key that includes it.`,
      );
    }
    case "not_found":
      return new BffError("not_found", "Not found: it does not exist or belongs to another account.");
    case "bad_request":
      return new BffError(
        "bad_request",
        `The Fleet Fuel API did not accept the request${error.field ? ` (${error.field})` : ""}: ${error.message}`,
      );
    case "rate_limited": {
      const seconds = error.retryAfterSeconds ?? 60;
      return new BffError(
        "rate_limited",
        `The Fleet Fuel API asked us to wait ${String(seconds)} s before the next request. Please try again then.`,
        { "Retry-After": String(seconds) },
      );
    }
    case "invalid_response":
      return new BffError(
        "upstream_invalid",
        "The Fleet Fuel API sent a reply we could not read. Please try again later.",
      );
    case "aborted":
      return new BffError("bad_request", "The request was cancelled.");
    case "shared_state_unavailable":
      return new BffError(
        "shared_state_unavailable",
        "The dashboard's shared state (Redis, or its data file of checked key pairs) is not answering, so nothing was sent to the Fleet Fuel API. Please try again in a minute; if it persists, tell your administrator.",
        { "Retry-After": "30" },
      );
    case "network_error":
    case "timeout":
    case "server_error":
      return new BffError(
        "upstream_unavailable",
        "The Fleet Fuel API is not answering right now. We tried a few times; please try again in a minute.",
      );
  }
}
