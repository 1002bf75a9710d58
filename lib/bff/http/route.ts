import "server-only";

import type { NextRequest } from "next/server";

import { getConfig } from "../platform/config";
import { mirrorFor } from "../sync/access";
import { checkCsrf } from "./csrf";
import { BffError } from "./errors";
import { withoutSession, withSession } from "./handler";
import { type InputSpec, type PublicOperation, runOperation, type SessionOperation } from "./operation";
import { parseQueryValues, queryValues } from "./query";
import { refuseWithoutTransactionsScope } from "./scope-guard";
import { testHooksAllowed } from "./test-hooks";

/**
 * The one adapter from an operation (lib/bff/http/operation.ts) to a Next route handler, so every route.ts is a line:
 * `export const GET = route(listTransactions);`. The session, the fetch-metadata check, the error shape, no-store and
 * the log line come from lib/bff/http/handler; the operation's own policy and input are applied here.
 */
export function route<I, R, P = Record<string, never>>(operation: SessionOperation<I, R, P>) {
  return withSession<P>(operation.route, async ({ request, session, key, params }) => {
    if (operation.csrf === "same-site+origin") refuseCrossSite(request);
    await refuseWithoutTransactionsScope(operation, session);
    const input = await readInput(operation.input, request, params);
    const mirror = () => mirrorFor(session);
    const ctx = { session, key, signal: request.signal, priority: operation.priority, mirror };
    return toResponse(await runOperation(operation, ctx, input));
  });
}

/** For the operations that work without a session (sign-in, test hooks). */
export function publicRoute<I, R>(operation: PublicOperation<I, R>) {
  return withoutSession(operation.route, async (request) => {
    if (operation.csrf === "origin") refuseCrossSite(request);
    // Test hooks do not exist for anyone without the token: the same 404 as an unknown path.
    else if (operation.csrf === "test-hook" && !testHooksAllowed(request))
      throw new BffError("not_found", "Not found.");
    const input = await readInput(operation.input, request, undefined);
    return toResponse(await operation.run({ request, signal: request.signal, priority: operation.priority }, input));
  });
}

/** The Origin check and the custom header (lib/bff/http/csrf) of requests that change state. */
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
