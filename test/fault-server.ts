import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A scripted upstream for faults the sandbox cannot produce on cue (a 429 storm with exact Retry-After values,
 * a 500 then success, a reply slower than the client's timeout, a cut connection, malformed JSON, an /auth
 * that is down). This is a mock by necessity; the behaviour it checks is also exercised against the real sandbox.
 */
export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON unless a string. */
  body?: unknown;
  /** Wait before answering, ms (real time). */
  delayMs?: number;
  /** Destroy the socket instead of answering. */
  drop?: boolean;
  /** Instead of `body`, stream this many bytes of a JSON string in 64 KiB chunks, without Content-Length. */
  chunkedBytes?: number;
}

interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: string;
}

export interface FaultServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Replies for "METHOD /path" (path without query), used in order; when used up, `fallback` answers. */
  script(route: string, ...replies: ScriptedReply[]): void;
  fallback(route: string, reply: (req: RecordedRequest) => ScriptedReply): void;
  close(): Promise<void>;
}

export async function startFaultServer(): Promise<FaultServer> {
  const scripts = new Map<string, ScriptedReply[]>();
  const fallbacks = new Map<string, (req: RecordedRequest) => ScriptedReply>();
  const requests: RecordedRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname.replace(/^\/api\/v1/, "");
    let body = "";
    for await (const chunk of req) body += String(chunk);
    const recorded: RecordedRequest = {
      method: req.method ?? "GET",
      path,
      query: url.searchParams,
      authorization: req.headers.authorization,
      body,
    };
    requests.push(recorded);
    const route = `${recorded.method} ${path}`;
    const reply = scripts.get(route)?.shift() ??
      fallbacks.get(route)?.(recorded) ?? {
        status: 404,
        body: { ok: false, error: "not_found", message: `no script for ${route}` },
      };
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (reply.drop) {
      req.socket.destroy();
      return;
    }
    if (reply.chunkedBytes !== undefined) {
      res.writeHead(reply.status ?? 200, { "Content-Type": "application/json", ...reply.headers });
      const chunk = "x".repeat(64 * 1024);
      res.write('{"pad": "');
      for (let sent = 0; sent < reply.chunkedBytes && !res.destroyed; sent += chunk.length) {
        if (!res.write(chunk)) await new Promise((r) => res.once("drain", r));
      }
      res.end('"}');
      return;
    }
    const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {});
    res.writeHead(reply.status ?? 200, { "Content-Type": "application/json", ...reply.headers });
    res.end(text);
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${String(port)}/api/v1`,
    requests,
    script: (route, ...replies) => {
      scripts.set(route, [...(scripts.get(route) ?? []), ...replies]);
    },
    fallback: (route, reply) => {
      fallbacks.set(route, reply);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
