import type { MiddlewareHandler } from "hono";

import type { SandboxConfig } from "../config";
import type { SandboxEnv } from "./env";
import { errorBody } from "./errors";

/**
 * Fault injection for client tests; off unless configured. Rates apply to every /api/v1 request; with
 * `faults.headers` on, a request can also ask for a fault itself:
 *   X-Sandbox-Fault: latency=1500            add 1.5 s before answering
 *   X-Sandbox-Fault: status=503              answer 500/502/503/504 with a JSON error
 *   X-Sandbox-Fault: drop                    cut the connection without an answer
 *   X-Sandbox-Fault: malformed               answer 200 with truncated JSON
 * Several may be combined with commas (latency first, then the rest).
 * `rateLimitSeconds` (no header form) answers every request 429 with that `Retry-After`, as a provider under load would.
 */
export function faultInjection(config: SandboxConfig): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const f = config.faults;
    const requested = f.headers ? parseFaultHeader(c.req.header("x-sandbox-fault")) : {};
    const latency = requested.latencyMs ?? f.latencyMs;
    if (latency > 0) await sleep(latency, c.req.raw.signal);
    if (f.rateLimitSeconds > 0) {
      c.header("Retry-After", String(f.rateLimitSeconds));
      return c.json(
        errorBody(
          config.profile,
          "rate_limited",
          `Injected fault: the request budget is exhausted; retry in ${String(f.rateLimitSeconds)} s.`,
        ),
        429,
      );
    }
    if (requested.drop || (f.dropRate > 0 && config.random() < f.dropRate)) {
      c.env.incoming?.socket.destroy();
      return new Response(null, { status: 499 });
    }
    if (requested.status !== undefined || (f.errorRate > 0 && config.random() < f.errorRate)) {
      const status = (requested.status ?? 500) as 500 | 502 | 503 | 504;
      return c.json(
        errorBody(config.profile, "server_error", "Injected fault: the sandbox was asked to fail this request."),
        status,
      );
    }
    if (requested.malformed || (f.malformedRate > 0 && config.random() < f.malformedRate)) {
      return new Response('{"ok": true, "data": {"page": 1, "items": [{"id": "', {
        status: 200,
        headers: { "Content-Type": "application/json" },
      });
    }
    await next();
  };
}

interface RequestedFault {
  latencyMs?: number;
  status?: number;
  drop?: boolean;
  malformed?: boolean;
}

export function parseFaultHeader(header: string | undefined): RequestedFault {
  const out: RequestedFault = {};
  if (!header) return out;
  for (const part of header.split(",").map((p) => p.trim().toLowerCase())) {
    const [name, value] = part.split("=");
    if (name === "latency" && value && /^\d{1,6}$/.test(value)) out.latencyMs = Number(value);
    else if (name === "status" && value && ["500", "502", "503", "504"].includes(value)) out.status = Number(value);
    else if (name === "drop") out.drop = true;
    else if (name === "malformed") out.malformed = true;
  }
  return out;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
