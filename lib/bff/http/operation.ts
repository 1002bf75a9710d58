import "server-only";

import type { z } from "zod";

import type { Priority } from "@/lib/fleet-api";

import { cache, cacheKey } from "../platform/cache";
import { getConfig } from "../platform/config";
import type { MirrorAccess } from "../platform/mirror-access";
import { passReadGate } from "../platform/read-gate";
import { mirrorReadLimit } from "../platform/running-limit";
import type { ActiveSession } from "../platform/session";
import { parseQueryValues } from "./query";

/**
 * One BFF endpoint as a plain module (lib/bff/operations/*): what it takes, what it answers, how it is cached, which
 * cross-site policy guards it, at which upstream priority it asks, and a `run` that needs no Next. The route adapter
 * (lib/bff/http/route.ts) turns it into a route handler; tests call `run` with a context over the sandbox.
 */

/** What a signed-in operation runs with: the session, its credential hash, the request's signal, its priority. */
export interface OperationContext {
  session: ActiveSession;
  /** The key pair's hash (credentialKey): the prefix of every cache key of this customer. */
  key: string;
  /** Aborts when the person's request goes away. */
  signal: AbortSignal;
  /**
   * The operation's declared upstream priority: interactive when a person waits for the answer, bulk for walks. Calls
   * the operation makes itself use it; lib walks that are bulk by nature (catalog, totals, summary) keep theirs.
   */
  priority: Priority;
  /** The customer's mirror when this session may read it (lib/bff/platform/mirror-access), else null. Tests inject their own. */
  mirror: () => Promise<MirrorAccess | null>;
}

/** What an operation without a session (sign-in, test hooks) runs with: the request itself (headers, body). */
export interface PublicContext {
  request: Request;
  signal: AbortSignal;
  priority: Priority;
}

/**
 * Where the input comes from: the query string checked with a zod schema (lib/bff/http/query), the route's path
 * parameters, the request body (read and checked by the operation's own reader), or nothing read at all.
 */
export type InputSpec<I, P> =
  | { query: z.ZodType<I> }
  /** The path parameters, and the query string for the routes that read both (a drill-down's id and its range). */
  | { params: (params: P, query: URLSearchParams) => I }
  | { body: (request: Request) => Promise<I> }
  | { none: true };

/** A cache entry's name (after the credential hash) and lifetime; the key is built by `cacheKey` alone. */
export interface CachePolicy {
  name: string;
  ttlMs: () => number;
  /** Also kept in the shared store (Redis) for the other instances: plain JSON that saves them upstream calls. */
  shared?: true;
}

/**
 * Cross-site policy. `same-site`: fetch metadata must show the dashboard's own page (every data read). `same-site+origin`:
 * also the Origin check and the custom header (state changes such as sign-out). `origin`: Origin and header only
 * (sign-in, before any session). `test-hook`: a 404 unless the test-hooks token is sent (lib/bff/http/test-hooks).
 * `read-only`: no check, for a GET that changes nothing and tells nothing secret (GET /api/livez and /api/healthz, for probes).
 */
type SessionCsrfPolicy = "same-site" | "same-site+origin";
type PublicCsrfPolicy = "origin" | "test-hook" | "read-only";

interface OperationBase<I, P> {
  /** Method and path, as the log line names the route: "GET /api/transactions". */
  route: string;
  input: InputSpec<I, P>;
  priority: Priority;
  cache?: CachePolicy;
}

/**
 * A signed-in endpoint. `run` answers its reply type (sent as JSON), `undefined` (204, no body) or a Response of its
 * own (a stream, a packed body).
 */
export interface SessionOperation<I, R, P = Record<string, never>> extends OperationBase<I, P> {
  auth: "session";
  csrf: SessionCsrfPolicy;
  /**
   * `transactions`: the reply is made of the customer's transactions (rows, sums, files, insights), from the upstream
   * or the local copy. A key refused the transactions scope (reported, or its own sign-in probe: lib/bff/sync/key-scope)
   * gets 403 before the operation runs. Every operation under a transactions-derived route declares it
   * (lib/bff/http/operation-table.test.ts fails otherwise).
   */
  reads?: "transactions";
  /**
   * `exempt`: a `reads: "transactions"` operation that takes no mirror-read slot (runOperation): it holds a limit of
   * its own (the export), reads no rows (the export's progress poll), or reads a page of rows by index (the list, one
   * transaction), which a page asks for beside its reports and which must not be refused for them. Say why beside it.
   */
  readSlot?: "exempt";
  run: (ctx: OperationContext, input: I) => Promise<R>;
}

export interface PublicOperation<I, R> extends OperationBase<I, undefined> {
  auth: "none";
  csrf: PublicCsrfPolicy;
  run: (ctx: PublicContext, input: I) => Promise<R>;
}

/** Declares a signed-in operation (only for type inference: the input type follows from its schema). */
export function sessionOperation<I, R, P = Record<string, never>>(
  operation: Omit<SessionOperation<I, R, P>, "auth">,
): SessionOperation<I, R, P> {
  return { ...operation, auth: "session" };
}

export function publicOperation<I, R>(operation: Omit<PublicOperation<I, R>, "auth">): PublicOperation<I, R> {
  return { ...operation, auth: "none" };
}

/** The operation's cached value for this input: one key builder, the operation's lifetime, the caller's signal. */
export function cached<T>(
  ctx: Pick<OperationContext, "key" | "signal">,
  policy: CachePolicy | undefined,
  input: unknown,
  load: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (policy === undefined) throw new Error("This operation declares no cache policy.");
  return cache().get<T>(cacheKey(ctx.key, policy.name, input), policy.ttlMs(), load, ctx.signal, {
    shared: policy.shared === true,
  });
}

/** Checks raw query values against a query operation's schema (a 400 naming each bad parameter), then runs it. */
export async function runWithQuery<I, R, P>(
  operation: SessionOperation<I, R, P>,
  ctx: OperationContext,
  raw: Record<string, string>,
): Promise<R> {
  if (!("query" in operation.input)) throw new Error(`${operation.route} takes no query.`);
  return operation.run(ctx, parseQueryValues(raw, operation.input.query));
}

/**
 * Runs a signed-in operation as its route does: one that reads the customer's transactions holds one of the session's
 * mirror-read slots while it runs (a 429 with Retry-After when all are taken), so one session's burst of heavy
 * questions cannot occupy the server for everyone (issue 25 item 7).
 */
export function runOperation<I, R, P>(
  operation: SessionOperation<I, R, P>,
  ctx: OperationContext,
  input: I,
): Promise<R> {
  if (operation.reads !== "transactions" || operation.readSlot === "exempt") return operation.run(ctx, input);
  return mirrorReadLimit(getConfig().mirrorReadsPerSession).run(ctx.session.sid, ctx.key, async () => {
    await passReadGate(ctx.signal);
    return operation.run(ctx, input);
  });
}
