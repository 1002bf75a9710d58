/**
 * The one way browser code talks to the BFF: same-origin fetch, one error type for every failure, and the single
 * place that sends the user to the login page when the session is over (any 401).
 */
import { parseRetryAfterSeconds } from "@/lib/model/retry-after";

/** Every failure of a BFF call, network failures included (status 0), so callers handle one type. */
export class BffRequestError extends Error {
  override readonly name = "BffRequestError";

  constructor(
    /** The HTTP status, or 0 when no answer came (offline, server down, connection reset). */
    readonly status: number,
    /** The BFF's error code (`scope_denied`, `rate_limited`…), or one of ours: `network_error`, `unexpected_response`. */
    readonly code: string,
    /** A sentence a person can act on: the BFF's own message when it sent one. */
    message: string,
    /** From `Retry-After`, when the answer had one (429, sometimes 503). */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

/**
 * A custom header the BFF requires on every POST/DELETE (sign-in, sign-out, sync now): it forces a CORS preflight, so
 * another site cannot send it.
 */
export const CSRF_HEADERS = { "X-Requested-With": "XMLHttpRequest" } as const;

export const NETWORK_ERROR_MESSAGE = "Cannot reach the dashboard's server. Check your connection and try again.";
const UNREADABLE_REPLY_MESSAGE = "The dashboard's server sent a reply we could not read. Please try again.";

export interface BffRequestOptions {
  /**
   * Whether a 401 sends the user to the login page (default true). Off for the login call itself, where a 401 means a
   * wrong key pair, and for logout, where it means the session had already ended.
   */
  redirectOnUnauthorized?: boolean;
}

const LOGIN_PATH = "/login";

/**
 * Lets the browser run other work before a request starts (issue 26: a phone's main thread). A page's queries all
 * start in the one task that runs React's effects after hydration, and the browser's first `fetch()` calls cost
 * 40–95 ms each on a mid-range phone: started together they made one long blocking task. Each now starts in a task of
 * its own (`scheduler.yield()` where the browser has it, which resumes ahead of other queued work; else a timeout).
 */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Sends a request to the BFF; resolves with the response when it is 2xx, else throws a `BffRequestError`. */
export async function requestBff(
  url: string,
  init: RequestInit = {},
  options: BffRequestOptions = {},
): Promise<Response> {
  await nextTask();
  init.signal?.throwIfAborted();
  const headers = new Headers(init.headers);
  if (!headers.has("Accept")) headers.set("Accept", "application/json");
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers, credentials: "same-origin" });
  } catch (error) {
    // A cancelled query (navigation, unmount) is not a failure: TanStack Query expects the abort to come back as is.
    if (isAbortError(error)) throw error;
    throw new BffRequestError(0, "network_error", NETWORK_ERROR_MESSAGE);
  }
  if (response.ok) return response;

  const failure = await readFailure(response);
  if (response.status === 401 && options.redirectOnUnauthorized !== false) redirectToLogin();
  throw failure;
}

/** GETs (or sends) JSON to the BFF and returns the parsed body. The BFF validates its responses on the way out. */
export async function fetchJson<T>(url: string, init: RequestInit = {}, options: BffRequestOptions = {}): Promise<T> {
  const response = await requestBff(url, init, options);
  return readJson<T>(response, () => response.json());
}

/** The media type of the BFF's gzip-packed JSON (lib/bff/http/compress). */
const PACKED_JSON_TYPE = "application/gzip";

/**
 * `fetchJson` for a large body the BFF can send gzip-packed (`pack=gzip`; the station catalog, 4–6× smaller): asked
 * for only when this browser can unpack it (`DecompressionStream`), unpacked as it streams in. A plain JSON answer
 * is read as is.
 */
export async function fetchPackedJson<T>(
  url: string,
  init: RequestInit = {},
  options: BffRequestOptions = {},
): Promise<T> {
  const canUnpack = typeof DecompressionStream !== "undefined";
  const response = await requestBff(canUnpack ? `${url}${url.includes("?") ? "&" : "?"}pack=gzip` : url, init, options);
  const body = response.body;
  if (canUnpack && body !== null && response.headers.get("Content-Type")?.startsWith(PACKED_JSON_TYPE) === true) {
    return readJson<T>(response, () => new Response(body.pipeThrough(new DecompressionStream("gzip"))).json());
  }
  return readJson<T>(response, () => response.json());
}

async function readJson<T>(response: Response, read: () => Promise<unknown>): Promise<T> {
  try {
    return (await read()) as T;
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new BffRequestError(response.status, "unexpected_response", UNREADABLE_REPLY_MESSAGE);
  }
}

let isRedirecting = false;

/**
 * A full navigation (not the client router): everything held in memory for the ended session, the query cache
 * included, goes with the page. Several queries failing at once cause one redirect.
 */
function redirectToLogin(): void {
  if (isRedirecting || typeof window === "undefined") return;
  if (window.location.pathname === LOGIN_PATH) return;
  isRedirecting = true;
  const params = new URLSearchParams({ reason: "expired", next: window.location.pathname + window.location.search });
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full navigation on purpose, see above
  window.location.assign(`${LOGIN_PATH}?${params.toString()}`);
}

async function readFailure(response: Response): Promise<BffRequestError> {
  const retryAfterSeconds = parseRetryAfterSeconds(response.headers.get("Retry-After"), Date.now()) ?? null;
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON: a proxy's error page, or an empty body. Fall through to the generic message.
  }
  const detail = readErrorBody(body);
  if (detail !== null) return new BffRequestError(response.status, detail.code, detail.message, retryAfterSeconds);
  return new BffRequestError(
    response.status,
    "unexpected_response",
    `The dashboard's server answered with an error (HTTP ${response.status}). Please try again.`,
    retryAfterSeconds,
  );
}

/** The BFF's `{ error: { code, message } }`, checked by hand: the shape of an error body is never trusted. */
function readErrorBody(body: unknown): { code: string; message: string } | null {
  if (!isRecord(body) || !isRecord(body.error)) return null;
  const { code, message } = body.error;
  if (typeof code !== "string" || typeof message !== "string" || message === "") return null;
  return { code, message };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}
