import "server-only";

import { parseRetryAfterSeconds } from "@/lib/model/retry-after";
import { readTextLimited } from "@/lib/read-limited";

import { reshapeError } from "./error-body";
import { FleetApiError, isFleetApiError } from "./errors";

/** One upstream answer, read completely: status, the headers we use, and the parsed JSON (or the failure to parse). */
export interface UpstreamReply {
  status: number;
  retryAfter: string | null;
  body: unknown;
  /** Set when a 2xx body was not JSON: the caller decides whether that is worth a retry. */
  malformed: boolean;
}

/** The largest reply we read: a 500-station page is about 150 KB; anything near this is not the Fleet Fuel API. */
const MAX_BODY_BYTES = 20 * 1024 * 1024;

/**
 * Sends one request with a timeout and the caller's signal, and reads the whole body. Network failures and
 * timeouts become FleetApiError (`network_error`, `timeout`); the caller's abort becomes `aborted`. The only
 * `fetch` to the upstream in the project is here.
 */
export async function send(
  url: string,
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<UpstreamReply> {
  // One controller for the timeout and the caller's signal, its listener removed afterwards (a long walk passes the
  // same caller signal to thousands of requests).
  const controller = new AbortController();
  const timeoutReason = new Error("timeout");
  const timer = setTimeout(() => {
    controller.abort(timeoutReason);
  }, options.timeoutMs);
  const onAbort = () => {
    controller.abort();
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) controller.abort();
  let read: { status: number; retryAfter: string | null; text: string };
  try {
    const res = await fetch(url, { ...init, signal: controller.signal, redirect: "error", cache: "no-store" });
    read = { status: res.status, retryAfter: res.headers.get("retry-after"), text: await readLimited(res) };
  } catch (error) {
    if (isFleetApiError(error)) throw error;
    if (options.signal?.aborted) throw abortedError(options.signal);
    if (controller.signal.reason === timeoutReason) {
      throw new FleetApiError({
        status: 0,
        code: "timeout",
        message: `The Fleet Fuel API did not answer within ${String(Math.round(options.timeoutMs / 1000))} s.`,
        cause: error,
      });
    }
    throw new FleetApiError({
      status: 0,
      code: "network_error",
      message: "The Fleet Fuel API could not be reached (the connection failed or was cut).",
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
  let body: unknown = undefined;
  let malformed = false;
  if (read.text.length > 0) {
    try {
      body = JSON.parse(read.text) as unknown;
    } catch {
      malformed = true;
    }
  }
  return { status: read.status, retryAfter: read.retryAfter, body, malformed };
}

/** The body as text, refusing (invalid_response, not retried) once it passes MAX_BODY_BYTES, chunked or not. */
async function readLimited(res: Response): Promise<string> {
  const tooLarge = () =>
    new FleetApiError({
      status: res.status,
      code: "invalid_response",
      message: "The Fleet Fuel API sent a reply too large to read.",
    });
  if (Number(res.headers.get("content-length") ?? "0") > MAX_BODY_BYTES) {
    await res.body?.cancel();
    throw tooLarge();
  }
  return readTextLimited(res.body, MAX_BODY_BYTES, tooLarge);
}

export function abortedError(signal: AbortSignal): FleetApiError {
  return new FleetApiError({ status: 0, code: "aborted", message: "The request was cancelled.", cause: signal.reason });
}

/** A non-2xx reply as a FleetApiError with the spec's code, the parameter or scope named where the body names it. */
export function replyError(reply: UpstreamReply, nowMs: number): FleetApiError {
  const parsed = reshapeError(reply.status, reply.body);
  const retryAfterSeconds = parseRetryAfterSeconds(reply.retryAfter, nowMs);
  return new FleetApiError({
    status: reply.status,
    code: parsed.code,
    message: parsed.message,
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    ...(parsed.field !== undefined ? { field: parsed.field } : {}),
    ...(parsed.scope !== undefined ? { scope: parsed.scope } : {}),
  });
}

/** The promise, or the signal's abort if that comes first (the promise itself goes on: others may share it). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortedError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(abortedError(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
