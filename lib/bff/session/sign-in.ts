import "server-only";

import { credentialKey, isFleetApiError } from "@/lib/fleet-api";
import type { SignInResult } from "@/lib/model";

import { publicOperation } from "../http/operation";
import { cache, UPSTREAM_ACCOUNT, upstreamAccountKey } from "../platform/cache";
import { getConfig } from "../platform/config";
import { startSession } from "../platform/session";
import { fleetApi } from "../platform/upstream";
import { mirrorService } from "../sync";
import { readSignInBody } from "./sign-in-body";
import { checkSignIn } from "./sign-in-check";

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
    const scopes = await checkSignIn(ctx, credentials);
    // The customer's name and code for the header; a key without the account scope still logs in.
    let customerName: string | null = null;
    let customerCode: string | null = null;
    try {
      const account = await fleetApi().getAccount(credentials);
      customerName = account.name;
      customerCode = account.code;
      // The overview opens next and shows this account: it reads this answer instead of asking the upstream again.
      await cache().get(
        upstreamAccountKey(credentialKey(credentials)),
        getConfig().cacheTtlMs.account,
        () => Promise.resolve(account),
        undefined,
        UPSTREAM_ACCOUNT,
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
