import type { Profile } from "../config";

/** @public The codes as a value; exists to derive the error-code type. */
export const ERROR_CODES = [
  "bad_request",
  "unauthenticated",
  "invalid_credentials",
  "scope_denied",
  "not_found",
  "rate_limited",
  "server_error",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
export type ErrorStatus = 400 | 401 | 403 | 404 | 429 | 500;

/** An error the API answers with; anything else thrown becomes a 500 `server_error` without details. */
export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const badRequest = (message: string) => new ApiError(400, "bad_request", message);
export const notFound = (message: string) => new ApiError(404, "not_found", message);

/** Primary: `{ok:false, error, message}`. Alternative: `{error:{code, message}}`. */
export function errorBody(profile: Profile, code: ErrorCode, message: string): Record<string, unknown> {
  return profile === "primary" ? { ok: false, error: code, message } : { error: { code, message } };
}
