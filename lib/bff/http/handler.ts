import "server-only";

import type { NextRequest } from "next/server";

import { credentialKey, isFleetApiError, keyFingerprint } from "@/lib/fleet-api";

import { cache } from "../platform/cache";
import { logger } from "../platform/log";
import { type ActiveSession, endSession, readSession, type SessionProblem } from "../platform/session";
import { type RequestContext, requestContext } from "../platform/upstream";
import { mirrorService } from "../sync/instance";
import { checkDataRequestSite } from "./csrf";
import { BffError, errorResponse, fromUpstream } from "./errors";

interface RouteContext<P> {
  request: NextRequest;
  session: ActiveSession;
  /** The key pair's hash: the prefix of every cache key of this customer. */
  key: string;
  params: P;
}

type Handler<P> = (ctx: RouteContext<P>) => Promise<Response>;

const SESSION_MESSAGES: Record<SessionProblem, string> = {
  missing: "Please sign in.",
  expired_idle: "You were signed out after a period of inactivity. Please sign in again.",
  expired_absolute: "Your session reached its maximum length. Please sign in again.",
  revoked: "This session was signed out. Please sign in again.",
};

/** Headers of every data response (the proxy adds the rest of the security headers). */
const DATA_HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } as const;

/**
 * Wraps a route handler: checks the session itself, maps every failure to one error shape, adds no-store, and logs
 * one line (route, status, duration, upstream calls, key fingerprint). Handlers stay a few lines long.
 */
export function withSession<P = Record<string, never>>(route: string, handler: Handler<P>) {
  return (request: NextRequest, context: { params: Promise<P> }) =>
    instrumented(route, request, async (log) => {
      // Data routes answer only the dashboard's own requests, so a foreign page cannot spend the user's request budget.
      const refused = checkDataRequestSite(request);
      if (refused !== null) throw new BffError("csrf_rejected", refused);
      const result = await readSession();
      if ("problem" in result)
        throw new BffError(
          result.problem === "missing" ? "unauthenticated" : "session_ended",
          SESSION_MESSAGES[result.problem],
        );
      log.key = keyFingerprint(result.session.credentials.keyId);
      try {
        const response = await handler({
          request,
          session: result.session,
          key: credentialKey(result.session.credentials),
          params: await context.params,
        });
        // An upstream call with this key succeeded: the key is proven live (the mirror's gate asks for it).
        if (requestContext.getStore()?.upstreamCalls.some((c) => c.status >= 200 && c.status < 300))
          mirrorService().provenLive(result.session);
        return response;
      } catch (error) {
        // The upstream no longer accepts the key: this session is over.
        if (isFleetApiError(error) && (error.code === "unauthenticated" || error.code === "invalid_credentials")) {
          await endSession(result.session.sid);
          cache().forget(credentialKey(result.session.credentials));
        }
        throw error;
      }
    });
}

/** For the few routes that work without a session (login). */
export function withoutSession(route: string, handler: (request: NextRequest) => Promise<Response>) {
  return (request: NextRequest) => instrumented(route, request, () => handler(request));
}

async function instrumented(
  route: string,
  request: NextRequest,
  run: (log: { key?: string }) => Promise<Response>,
): Promise<Response> {
  const started = performance.now();
  const ctx: RequestContext = { upstreamCalls: [] };
  const log: { key?: string } = {};
  return requestContext.run(ctx, async () => {
    let response: Response;
    try {
      response = await run(log);
    } catch (error) {
      response = errorResponse(toBffError(error, route));
    }
    for (const [name, value] of Object.entries(DATA_HEADERS))
      if (!response.headers.has(name)) response.headers.set(name, value);
    logger().info(
      {
        route,
        method: request.method,
        status: response.status,
        durationMs: Math.round(performance.now() - started),
        upstreamCalls: ctx.upstreamCalls.length,
        upstream: ctx.upstreamCalls.map((c) => `${c.method} ${c.path} ${String(c.status)}`),
        ...(log.key ? { key: log.key } : {}),
      },
      "request",
    );
    return response;
  });
}

function toBffError(error: unknown, route: string): BffError {
  if (error instanceof BffError) return error;
  if (isFleetApiError(error)) return fromUpstream(error);
  logger().error(
    {
      route,
      err: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
    },
    "unhandled error",
  );
  return new BffError("internal_error", "Something went wrong on our side. Please try again; if it persists, tell us.");
}

/**
 * `export const HEAD = refuseHead` for routes that do expensive work (an export, a summary walk): without a HEAD of
 * its own, Next answers HEAD by running GET — the whole work, for a reply without a body. 405, no work, no session read.
 */
export function refuseHead(): Response {
  return new Response(null, { status: 405, headers: { Allow: "GET", ...DATA_HEADERS } });
}
