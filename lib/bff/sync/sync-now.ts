import "server-only";

import { sessionOperation } from "../http/operation";
import { mirrorService } from "./instance";

/**
 * POST /api/sync — "sync now": a head sync of the signed-in customer's mirror in the background (after the run in
 * progress, if any), at bulk priority with the budget's reserve kept. 202 with the status as it then stands (the
 * page follows with GET /api/sync). A state change: the Origin check and the custom header, like sign-out.
 */
export const syncNow = sessionOperation({
  route: "POST /api/sync",
  input: { none: true },
  csrf: "same-site+origin",
  priority: "interactive",
  run: async ({ session }, _input: undefined): Promise<Response> =>
    Response.json(await mirrorService().syncNow(session), { status: 202 }),
});
