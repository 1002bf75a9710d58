import "server-only";

import { type Credentials, isFleetApiError } from "@/lib/fleet-api";

import { BffError } from "../http/errors";
import type { PublicContext } from "../http/operation";
import { getConfig } from "../platform/config";
import { clientAddress } from "../platform/login-limiter";
import { loginLimiter } from "../platform/login-limiter-redis";
import { fleetApi } from "../platform/upstream";

/**
 * A sign-in's pair checked against the upstream, after this server's own throttles of failed sign-ins: its scopes.
 * The sign-in operation's first step, apart so tests can run it without Next (it seals no cookie).
 */
export async function checkSignIn(
  ctx: Pick<PublicContext, "request" | "signal">,
  credentials: Credentials,
): Promise<string[] | null> {
  const address = clientAddress(ctx.request.headers, getConfig().trustProxy);
  // A pair known good (it signed in within 30 days, or its token is held) skips the throttles: other people's
  // failures, even with this key id, must not lock its owner out. The verdict is kept on disk or in Redis, so this
  // holds after a restart too.
  const isRecognised = await fleetApi().recognises(credentials);
  if (!isRecognised) {
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
    // A first sign-in after its own typos ends the key id's run of failures. A recognised pair's does not: the run is
    // somebody else's guessing (the owner skipped it), and ending it would give the guesser three free tries again.
    if (!isRecognised) await loginLimiter().recordSuccess(credentials.keyId);
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
