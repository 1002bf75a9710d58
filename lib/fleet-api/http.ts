import "server-only";
import { FleetApiError } from "./errors";
import { reshapeError } from "./reshape";

/** One upstream answer, read completely: status, the headers we use, and the parsed JSON (or the failure to parse). */
export interface UpstreamReply {
  status: number;
  retryAfter: string | null;
  body: unknown;
  /** Set when a 2xx body was not JSON: the caller decides whether that is worth a retry. */
  malformed: boolean;
}

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
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const res = await fetch(url, { ...init, signal, redirect: "error", cache: "no-store" });
    const text = await readText(res);
    let body: unknown = undefined;
    let malformed = false;
    if (text.length > 0) {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        malformed = true;
      }
    }
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body, malformed };
  } catch (error) {
    if (options.signal?.aborted) throw abortedError(options.signal);
    if (timeout.aborted) {
      throw new FleetApiError({ status: 0, code: "timeout", message: `The Fleet Fuel API did not answer within ${String(Math.round(options.timeoutMs / 1000))} s.`, cause: error });
    }
    throw new FleetApiError({ status: 0, code: "network_error", message: "The Fleet Fuel API could not be reached (the connection failed or was cut).", cause: error });
  }
}

async function readText(res: Response): Promise<string> {
  const length = Number(res.headers.get("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) {
    await res.body?.cancel();
    throw new FleetApiError({ status: res.status, code: "invalid_response", message: "The Fleet Fuel API sent a reply too large to read." });
  }
  return res.text();
}

export function abortedError(signal: AbortSignal): FleetApiError {
  return new FleetApiError({ status: 0, code: "aborted", message: "The request was cancelled.", cause: signal.reason });
}

/** A non-2xx reply as a FleetApiError with the spec's code, the parameter or scope named where the body names it. */
export function replyError(reply: UpstreamReply): FleetApiError {
  const parsed = reshapeError(reply.status, reply.body);
  const retryAfterSeconds = reply.retryAfter !== null && /^\d+$/.test(reply.retryAfter.trim()) ? Number(reply.retryAfter.trim()) : undefined;
  return new FleetApiError({
    status: reply.status,
    code: parsed.code,
    message: parsed.message,
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    ...(parsed.field !== undefined ? { field: parsed.field } : {}),
    ...(parsed.scope !== undefined ? { scope: parsed.scope } : {}),
  });
}
