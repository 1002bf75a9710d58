import "server-only";

import { credentialKey } from "@/lib/fleet-api";
import type { SessionInfo } from "@/lib/model";

import { sessionOperation } from "../http/operation";
import { cache } from "../platform/cache";
import { getConfig } from "../platform/config";
import { endSession } from "../platform/session";
import { mirrorService } from "../sync";

/** GET /api/session — who is logged in: customer name/code, scopes known, upstream host. */
export const getSessionInfo = sessionOperation({
  route: "GET /api/session",
  input: { none: true },
  csrf: "same-site",
  priority: "interactive",
  run: ({ session }, _input: undefined): Promise<SessionInfo> =>
    Promise.resolve({
      customer: { name: session.customerName, code: session.customerCode },
      scopes: session.scopes,
      upstreamHost: new URL(getConfig().upstream.baseUrl).host,
      upstreamIsSandbox: getConfig().upstream.isSandbox,
      expiresAt: new Date(session.expiresAt).toISOString(),
    }),
});

/** DELETE /api/session — log out: the session id is revoked server-side, so a replayed cookie no longer works. */
export const signOut = sessionOperation({
  route: "DELETE /api/session",
  input: { none: true },
  csrf: "same-site+origin",
  priority: "interactive",
  run: async ({ session }, _input: undefined): Promise<undefined> => {
    await endSession(session.sid);
    mirrorService().signedOut(session);
    cache().forget(credentialKey(session.credentials));
    return undefined;
  },
});
