/**
 * The one error type the upstream client throws. `code` is the spec's error code where the upstream gave one,
 * or one of ours for what the spec has no word for (network, timeout, invalid_response, aborted).
 */
/** The codes of the spec's error table, plus `invalid_credentials` (its status unspecified). */
export const UPSTREAM_ERROR_CODES = [
  "bad_request",
  "unauthenticated",
  "invalid_credentials",
  "scope_denied",
  "not_found",
  "rate_limited",
  "server_error",
] as const;
/**
 * Ours, for what the spec has no word for. `address_refused`: a 401 whose message says the key's allow-list excludes
 * the caller's address (the key itself may be fine). `too_many_failed_checks`: refused here, without asking, because
 * this process's failed key-pair checks would otherwise reach the provider's per-address allowance.
 * `shared_state_unavailable`: the state several instances share (Redis: the budget, the token) or the file of pair
 * verdicts did not answer, so no request was sent — sending without it could exceed the provider's budget.
 */
const CLIENT_ERROR_CODES = [
  "network_error",
  "timeout",
  "invalid_response",
  "aborted",
  "address_refused",
  "too_many_failed_checks",
  "shared_state_unavailable",
] as const;
/** @public The codes as a value; exists to derive `FleetApiErrorCode`. */
export const FLEET_API_ERROR_CODES = [...UPSTREAM_ERROR_CODES, ...CLIENT_ERROR_CODES] as const;
export type FleetApiErrorCode = (typeof FLEET_API_ERROR_CODES)[number];

export class FleetApiError extends Error {
  /** HTTP status of the upstream's answer; 0 when there was none (network, timeout, aborted). */
  readonly status: number;
  readonly code: FleetApiErrorCode;
  /** Seconds the upstream asked us to wait (429 Retry-After). */
  readonly retryAfterSeconds: number | undefined;
  /** The request parameter (400) or response field (invalid_response) concerned, when known. */
  readonly field: string | undefined;
  /** For scope_denied: the scope the key lacks, in the upstream's naming. */
  readonly scope: string | undefined;

  constructor(init: {
    status: number;
    code: FleetApiErrorCode;
    message: string;
    retryAfterSeconds?: number;
    field?: string;
    scope?: string;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "FleetApiError";
    this.status = init.status;
    this.code = init.code;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.field = init.field;
    this.scope = init.scope;
  }
}

export const isFleetApiError = (error: unknown): error is FleetApiError => error instanceof FleetApiError;
