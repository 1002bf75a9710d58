import "server-only";

import { type FleetApiErrorCode, UPSTREAM_ERROR_CODES } from "./errors";
import { isRecord } from "./read-reply";
import { UpstreamErrorAlternative, UpstreamErrorPrimary } from "./upstream-schemas";

/** An upstream error body (either documented shape, or none) as the spec's code, a message, and the scope or parameter it names. */

type UpstreamErrorCode = (typeof UPSTREAM_ERROR_CODES)[number];

const isUpstreamErrorCode = (code: string): code is UpstreamErrorCode =>
  (UPSTREAM_ERROR_CODES as readonly string[]).includes(code);

const GENERIC_MESSAGES: Readonly<Record<UpstreamErrorCode, string>> = {
  bad_request: "The Fleet Fuel API rejected the request as malformed.",
  unauthenticated: "The Fleet Fuel API did not accept the credentials.",
  invalid_credentials: "The Fleet Fuel API does not know this key id, or the secret is wrong.",
  scope_denied: "This API key lacks the scope this request needs.",
  not_found: "The Fleet Fuel API has no such resource for this customer.",
  rate_limited: "The Fleet Fuel API's request budget for this key is used up.",
  server_error: "The Fleet Fuel API failed on its side.",
};

const HTTP_BAD_REQUEST = 400;
const HTTP_UNAUTHORIZED = 401;
const HTTP_FORBIDDEN = 403;
const HTTP_NOT_FOUND = 404;
const HTTP_TOO_MANY_REQUESTS = 429;
const HTTP_SERVER_ERROR = 500;
/** An upstream message longer than this is cut: it is shown to people and logged. */
const MAX_MESSAGE_LENGTH = 300;

/**
 * The spec's status table. Other 4xx are our request's fault (bad_request); anything else that is not a success
 * (5xx, and statuses that should not carry an error at all) is the server's (server_error).
 */
function codeFromStatus(status: number): UpstreamErrorCode {
  switch (status) {
    case HTTP_BAD_REQUEST:
      return "bad_request";
    case HTTP_UNAUTHORIZED:
      return "unauthenticated";
    case HTTP_FORBIDDEN:
      return "scope_denied";
    case HTTP_NOT_FOUND:
      return "not_found";
    case HTTP_TOO_MANY_REQUESTS:
      return "rate_limited";
    default:
      return status >= HTTP_BAD_REQUEST && status < HTTP_SERVER_ERROR ? "bad_request" : "server_error";
  }
}

interface ErrorBodyParts {
  code: string | undefined;
  message: string | undefined;
  /** Where the body itself names a parameter or scope (not in the spec, but cheap to honour). */
  hints: Record<string, unknown>;
}

function readErrorBody(body: unknown): ErrorBodyParts {
  const alternative = UpstreamErrorAlternative.safeParse(body);
  if (alternative.success && isRecord(body) && isRecord(body.error)) {
    return { code: alternative.data.error.code, message: alternative.data.error.message, hints: body.error };
  }
  const primary = UpstreamErrorPrimary.safeParse(body);
  if (primary.success && isRecord(body))
    return { code: primary.data.error, message: primary.data.message, hints: body };
  return { code: undefined, message: undefined, hints: {} };
}

export function reshapeError(
  status: number,
  body: unknown,
): { code: FleetApiErrorCode; message: string; scope?: string; field?: string } {
  try {
    const parts = readErrorBody(body);
    const code: UpstreamErrorCode =
      parts.code !== undefined && isUpstreamErrorCode(parts.code) ? parts.code : codeFromStatus(status);
    const message = tidyMessage(parts.message) ?? GENERIC_MESSAGES[code];
    if (code === "scope_denied") {
      const scope = stringHint(parts.hints, "scope") ?? scopeFromMessage(message);
      return scope === undefined ? { code, message } : { code, message, scope };
    }
    if (code === "bad_request") {
      const field = stringHint(parts.hints, "field") ?? stringHint(parts.hints, "param") ?? fieldFromMessage(message);
      return field === undefined ? { code, message } : { code, message, field };
    }
    return { code, message };
  } catch {
    // Never throws: nothing above should, but an error body is no reason to lose the status.
    const code = codeFromStatus(status);
    return { code, message: GENERIC_MESSAGES[code] };
  }
}

function tidyMessage(message: string | undefined): string | undefined {
  const trimmed = message?.trim();
  if (!trimmed) return undefined;
  return trimmed.length > MAX_MESSAGE_LENGTH ? `${trimmed.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : trimmed;
}

function stringHint(hints: Record<string, unknown>, key: string): string | undefined {
  const value = hints[key];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Scope names of either description: `read` (primary), `account`, `transactions`, `locations` (alternative). */
const SCOPE = "(read|account|transactions|locations)";
const SCOPE_PATTERNS = [
  // "lacks the read scope", "lacks the `transactions` scope"
  new RegExp(`\\b["'\`]?${SCOPE}["'\`]?\\s+scope\\b`, "i"),
  // "scope: locations", "requires scope 'account'"
  new RegExp(`\\bscopes?\\s*[:=]?\\s*["'\`]?${SCOPE}\\b`, "i"),
];

function scopeFromMessage(message: string): string | undefined {
  for (const pattern of SCOPE_PATTERNS) {
    const name = pattern.exec(message)?.[1];
    if (name !== undefined) return name.toLowerCase();
  }
  return undefined;
}

/** Words that can open or follow "invalid" in a 400 message without being a parameter. */
const NOT_PARAMETERS: ReadonlySet<string> = new Set([
  "the",
  "this",
  "that",
  "it",
  "request",
  "body",
  "json",
  "input",
  "value",
  "data",
  "query",
]);
const FIELD_PATTERNS = [
  // "Unknown query parameter: q.", "Repeated parameter: limit", "Unknown query parameters: q, search"
  /\bparam(?:eter)?s?\b[^:.]*:\s*["'`]?([A-Za-z_][\w-]*)/i,
  // "parameter 'limit' is repeated"
  /\bparam(?:eter)?\s+["'`]([A-Za-z_][\w-]*)["'`]/i,
  // "limit must be between 1 and 200.", "`status` is not one of …", "from (2026-01-02) is after to (2026-01-01)."
  /^\s*["'`]?([a-z_][a-z0-9_]*)["'`]?(?:\s*\([^)]*\))?\s+(?:must|is|are|should|cannot|can't|may|has|needs?|exceeds?)\b/,
  // "Invalid limit", "invalid value for status"
  /\b(?:invalid|malformed|bad)\s+(?:value\s+(?:for|of)\s+)?["'`]?([a-z_][a-z0-9_]*)["'`]?/i,
];

/** The request parameter a 400 message names, so the client can retry with the other documented variant. */
function fieldFromMessage(message: string): string | undefined {
  for (const pattern of FIELD_PATTERNS) {
    const name = pattern.exec(message)?.[1];
    if (name !== undefined && !NOT_PARAMETERS.has(name.toLowerCase())) return name;
  }
  return undefined;
}
