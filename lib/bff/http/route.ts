import "server-only";

import type { NextRequest } from "next/server";

import { credentialKey, isFleetApiError, keyFingerprint } from "@/lib/fleet-api";

import { cache } from "../platform/cache";
import { getConfig } from "../platform/config";
import { logger } from "../platform/log";
import { type ActiveSession, endSession, readSession, type SessionProblem } from "../platform/session";
import { type RequestContext, requestContext } from "../platform/upstream";
import { mirrorFor, mirrorService } from "../sync";
import { checkCsrf, checkDataRequestSite } from "./csrf";
import { BffError, errorResponse, fromUpstream } from "./errors";
import { type InputSpec, type PublicOperation, runOperation, type SessionOperation } from "./operation";
import { parseQueryValues, queryValues } from "./query";
import { refuseWithoutTransactionsScope } from "./scope-guard";
import { testHooksAllowed } from "./test-hooks";

/**
 * The one adapter from an operation (./operation.ts) to a Next route handler, so every route.ts is a line:
 * `export const GET = route(listTransactions);`. In order: the log line and the error shape around everything, the
 * data routes' fetch-metadata check, the session, the operation's own cross-site policy, the transactions scope, the
 * input, then `runOperation`; the reply gets no-store. The mirror is reached through sync's entry only: the session's
 * gate (`ctx.mirror`), "key proven live" after a successful upstream call, and a refused key ending its sessions.
 */

const SESSION_MESSAGES: Record<SessionProblem, string> = {
  missing: "Please sign in.",
  expired_idle: "You were signed out after a period of inactivity. Please sign in again.",
  expired_absolute: "Your session reached its maximum length. Please sign in again.",
  revoked: "This session was signed out. Please sign in again.",
};

/** Headers of every data response (the proxy adds the rest of the security headers). */
const DATA_HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } as const;

/** What the log line knows of the request beyond the route: the key's fingerprint once the session is read. */
interface LogFields {
  key?: string;
}

/** A signed-in operation as a route handler. */
export function route<I, R, P = Record<string, never>>(operation: SessionOperation<I, R, P>) {
  return (request: NextRequest, context: { params: Promise<P> }) =>
    respond(operation.route, request, async (log) => {
      // Data routes answer only the dashboard's own requests, so a foreign page cannot spend the user's request budget.
      const refused = checkDataRequestSite(request);
      if (refused !== null) throw new BffError("csrf_rejected", refused);
      const session = await signedInSession();
      log.key = keyFingerprint(session.credentials.keyId);
      return withKeyEvents(session, async () => {
        if (operation.csrf === "same-site+origin") refuseCrossSite(request);
        await refuseWithoutTransactionsScope(operation, session);
        const input = await readInput(operation.input, request, await context.params);
        const key = credentialKey(session.credentials);
        const mirror = () => mirrorFor(session);
        const ctx = { session, key, signal: request.signal, priority: operation.priority, mirror };
        return toResponse(await runOperation(operation, ctx, input));
      });
    });
}

/** For the operations that work without a session (sign-in, test hooks, health). */
export function publicRoute<I, R>(operation: PublicOperation<I, R>) {
  return (request: NextRequest) =>
    respond(operation.route, request, async () => {
      if (operation.csrf === "origin") refuseCrossSite(request);
      // Test hooks do not exist for anyone without the token: the same 404 as an unknown path.
      else if (operation.csrf === "test-hook" && !testHooksAllowed(request))
        throw new BffError("not_found", "Not found.");
      const input = await readInput(operation.input, request, undefined);
      return toResponse(await operation.run({ request, signal: request.signal, priority: operation.priority }, input));
    });
}

/**
 * `export const HEAD = refuseHead` for routes that do expensive work (an export, a summary walk): without a HEAD of
 * its own, Next answers HEAD by running GET — the whole work, for a reply without a body. 405, no work, no session read.
 */
export function refuseHead(): Response {
  return new Response(null, { status: 405, headers: { Allow: "GET", ...DATA_HEADERS } });
}

async function signedInSession(): Promise<ActiveSession> {
  const result = await readSession();
  if ("problem" in result)
    throw new BffError(
      result.problem === "missing" ? "unauthenticated" : "session_ended",
      SESSION_MESSAGES[result.problem],
    );
  return result.session;
}

/**
 * What the request teaches about its key: an upstream call with it succeeded (proven live: the mirror's gate asks for
 * it), or the upstream no longer accepts it (this session is over, its cache entries dropped).
 */
async function withKeyEvents(session: ActiveSession, run: () => Promise<Response>): Promise<Response> {
  try {
    const response = await run();
    if (requestContext.getStore()?.upstreamCalls.some((c) => c.status >= 200 && c.status < 300))
      mirrorService().provenLive(session);
    return response;
  } catch (error) {
    if (isFleetApiError(error) && (error.code === "unauthenticated" || error.code === "invalid_credentials")) {
      await endSession(session.sid);
      cache().forget(credentialKey(session.credentials));
    }
    throw error;
  }
}

/** The Origin check and the custom header (./csrf.ts) of requests that change state. */
function refuseCrossSite(request: NextRequest): void {
  const reason = checkCsrf(request, { trustProxy: getConfig().trustProxy, allowedOrigins: getConfig().publicOrigins });
  if (reason !== null) throw new BffError("csrf_rejected", reason);
}

async function readInput<I, P>(spec: InputSpec<I, P>, request: NextRequest, params: P): Promise<I> {
  if ("query" in spec) return parseQueryValues(queryValues(request.nextUrl.searchParams), spec.query);
  if ("params" in spec) return spec.params(params, request.nextUrl.searchParams);
  if ("body" in spec) return spec.body(request);
  // An operation that reads nothing ignores the query string, as its route always did.
  return undefined as I;
}

/** A reply as JSON, `undefined` as 204 without a body, or the operation's own Response as it is. */
function toResponse(result: unknown): Response {
  if (result instanceof Response) return result;
  if (result === undefined) return new Response(null, { status: 204 });
  return Response.json(result);
}

/**
 * Runs one request: every failure becomes one error shape, every reply gets no-store, and one log line says route,
 * status, duration, the upstream calls made (collected through the request's context) and the key's fingerprint.
 */
async function respond(route: string, request: NextRequest, run: (log: LogFields) => Promise<Response>) {
  const started = performance.now();
  const ctx: RequestContext = { upstreamCalls: [] };
  const log: LogFields = {};
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
