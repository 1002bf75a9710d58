import type { NextRequest } from "next/server";
import { z } from "zod";
import { isFleetApiError, type Credentials } from "@/lib/fleet-api";
import { getConfig } from "@/lib/bff/config";
import { checkCsrf } from "@/lib/bff/csrf";
import { BffError } from "@/lib/bff/errors";
import { withoutSession, withSession } from "@/lib/bff/handler";
import { cache, upstreamAccountKey } from "@/lib/bff/cache";
import { clientAddress, loginWaitMs, recordLoginFailure, recordLoginSuccess } from "@/lib/bff/login-limiter";
import { endSession, startSession } from "@/lib/bff/session";
import { readTextLimited } from "@/lib/read-limited";
import { fleetApi } from "@/lib/bff/upstream";
import { credentialKey } from "@/lib/fleet-api";

const MAX_BODY_BYTES = 4096;

const KeyPairBody = z
  .object({
    keyId: z
      .string({ error: (i) => (i.input === undefined ? "keyId is required" : "keyId must be a string") })
      .trim()
      .min(1, { error: "keyId is required" })
      .max(200, { error: "keyId is too long" }),
    secret: z
      .string({ error: (i) => (i.input === undefined ? "secret is required" : "secret must be a string") })
      .min(1, { error: "secret is required" })
      .max(500, { error: "secret is too long" }),
  })
  .strict();
/** "Sign in with the demo key": the pair is the server's (DEMO_KEY_ID/SECRET, local sandbox only), never the browser's. */
const DemoBody = z.object({ demo: z.literal(true, { error: "demo must be true" }) }).strict();

function credentialsFrom(body: unknown): Credentials {
  if (typeof body === "object" && body !== null && Object.hasOwn(body, "demo")) {
    const demo = DemoBody.safeParse(body);
    if (!demo.success)
      throw new BffError(
        "bad_request",
        `${demo.error.issues[0]?.code === "unrecognized_keys" ? "Send either {demo: true} or {keyId, secret}, not both" : (demo.error.issues[0]?.message ?? "Invalid request")}.`,
      );
    const pair = getConfig().demoKey;
    if (pair === undefined)
      throw new BffError("bad_request", "No demo key is offered here: sign in with your own key pair.");
    return { keyId: pair.keyId, secret: pair.secret };
  }
  const parsed = KeyPairBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BffError(
      "bad_request",
      issue?.code === "unrecognized_keys"
        ? `Unknown field: ${issue.keys.join(", ")}.`
        : `${issue?.message ?? "Invalid request"}.`,
    );
  }
  return { keyId: parsed.data.keyId, secret: parsed.data.secret };
}

function refuseCrossSite(request: NextRequest): void {
  const reason = checkCsrf(request, { trustProxy: getConfig().trustProxy, allowedOrigins: getConfig().publicOrigins });
  if (reason !== null) throw new BffError("csrf_rejected", reason);
}

async function readJson(request: NextRequest): Promise<unknown> {
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? ""))
    throw new BffError("bad_request", "Send the key pair as JSON (Content-Type: application/json).");
  if (Number(request.headers.get("content-length") ?? "0") > MAX_BODY_BYTES)
    throw new BffError("payload_too_large", "The request body is too large.");
  const text = await readTextLimited(
    request.body,
    MAX_BODY_BYTES,
    () => new BffError("payload_too_large", "The request body is too large."),
  );
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BffError("bad_request", "The request body is not valid JSON.");
  }
}

// POST /api/session — log in with {keyId, secret} (or {demo: true} when the sandbox's demo key is offered): verifies
// the pair against the upstream, seals the session
export const POST = withoutSession("POST /api/session", async (request) => {
  refuseCrossSite(request);
  const credentials = credentialsFrom(await readJson(request));
  const address = clientAddress(request.headers, getConfig().trustProxy);
  // A pair known good (it signed in lately, or its token is held) skips the throttles: other people's failures,
  // even with this key id, must not lock its owner out.
  if (!(await fleetApi().recognises(credentials))) {
    const waitMs = loginWaitMs(credentials.keyId, address);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new BffError(
        "rate_limited",
        `Too many failed sign-ins. Please wait ${String(seconds)} s before trying again.`,
        { "Retry-After": String(seconds) },
      );
    }
  }
  let scopes: string[] | null;
  try {
    ({ scopes } = await fleetApi().authenticate(credentials, { signal: request.signal }));
  } catch (error) {
    if (
      isFleetApiError(error) &&
      (error.code === "unauthenticated" || error.code === "invalid_credentials" || error.code === "bad_request")
    ) {
      recordLoginFailure(credentials.keyId, address);
      throw new BffError("invalid_credentials", "The key id or secret is wrong, or the key was revoked.");
    }
    // address_refused (the key's allow-list lacks this server) and too_many_failed_checks are mapped by the handler.
    throw error;
  }
  recordLoginSuccess(credentials.keyId);
  // The customer's name and code for the header; a key without the account scope still logs in.
  let customerName: string | null = null;
  let customerCode: string | null = null;
  try {
    const account = await fleetApi().getAccount(credentials);
    customerName = account.name;
    customerCode = account.code;
    // The overview opens next and shows this account: it reads this answer instead of asking the upstream again.
    await cache().get(upstreamAccountKey(credentialKey(credentials)), getConfig().cacheTtlMs.account, () =>
      Promise.resolve(account),
    );
  } catch (error) {
    if (!isFleetApiError(error) || error.code !== "scope_denied") throw error;
  }
  const session = await startSession({ credentials, customerName, customerCode, scopes });
  return Response.json({
    customer: { name: customerName, code: customerCode },
    scopes,
    upstreamHost: new URL(getConfig().upstream.baseUrl).host,
    expiresAt: new Date(session.expiresAt).toISOString(),
  });
});

// GET /api/session — who is logged in: customer name/code, scopes known, upstream host
export const GET = withSession("GET /api/session", ({ session }) =>
  Promise.resolve(
    Response.json({
      customer: { name: session.customerName, code: session.customerCode },
      scopes: session.scopes,
      upstreamHost: new URL(getConfig().upstream.baseUrl).host,
      upstreamIsSandbox: getConfig().upstream.isLocal,
      expiresAt: new Date(session.expiresAt).toISOString(),
    }),
  ),
);

// DELETE /api/session — log out: the session id is revoked server-side, so a replayed cookie no longer works
export const DELETE = withSession("DELETE /api/session", async ({ request, session }) => {
  refuseCrossSite(request);
  await endSession(session.sid);
  cache().forget(credentialKey(session.credentials));
  return new Response(null, { status: 204 });
});
