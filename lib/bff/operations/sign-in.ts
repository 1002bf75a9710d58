import "server-only";

import { credentialKey, type Credentials, isFleetApiError } from "@/lib/fleet-api";
import type { SignInResult } from "@/lib/model";

import { cache, upstreamAccountKey } from "../cache";
import { getConfig } from "../config";
import { BffError } from "../errors";
import { clientAddress } from "../login-limiter";
import { loginLimiter } from "../login-limiter-redis";
import { mirrorService } from "../mirror/instance";
import { type PublicContext, publicOperation } from "../operation";
import { startSession } from "../session";
import { fleetApi } from "../upstream";
import { readSignInBody } from "./sign-in-body";

/**
 * POST /api/session — log in with {keyId, secret} (or {demo: true} when the sandbox's demo key is offered): verifies
 * the pair against the upstream, seals the session.
 */
export const signIn = publicOperation({
  route: "POST /api/session",
  input: { body: readSignInBody },
  csrf: "origin",
  priority: "interactive",
  run: async (ctx, credentials): Promise<SignInResult> => {
    const scopes = await verify(ctx, credentials);
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
    // The key proves the transactions scope with one call of its own before the local copy may serve it (the primary
    // upstream reports no scopes); then the mirror's first sync starts in the background.
    await mirrorService().signedIn(session);
    return {
      customer: { name: customerName, code: customerCode },
      scopes,
      upstreamHost: new URL(getConfig().upstream.baseUrl).host,
      expiresAt: new Date(session.expiresAt).toISOString(),
    };
  },
});

/** The pair checked against the upstream (after this server's own throttle of failed sign-ins): its scopes. */
async function verify(ctx: PublicContext, credentials: Credentials): Promise<string[] | null> {
  const address = clientAddress(ctx.request.headers, getConfig().trustProxy);
  // A pair known good (it signed in lately, or its token is held) skips the throttles: other people's failures,
  // even with this key id, must not lock its owner out.
  if (!(await fleetApi().recognises(credentials))) {
    const waitMs = await loginLimiter().waitMs(credentials.keyId, address);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new BffError(
        "rate_limited",
        `Too many failed sign-ins. Please wait ${String(seconds)} s before trying again.`,
        { "Retry-After": String(seconds) },
      );
    }
  }
  try {
    const { scopes } = await fleetApi().authenticate(credentials, { signal: ctx.signal });
    await loginLimiter().recordSuccess(credentials.keyId);
    return scopes;
  } catch (error) {
    if (
      isFleetApiError(error) &&
      (error.code === "unauthenticated" || error.code === "invalid_credentials" || error.code === "bad_request")
    ) {
      await loginLimiter().recordFailure(credentials.keyId, address);
      throw new BffError("invalid_credentials", "The key id or secret is wrong, or the key was revoked.");
    }
    // address_refused (the key's allow-list lacks this server) and too_many_failed_checks are mapped by the handler.
    throw error;
  }
}
