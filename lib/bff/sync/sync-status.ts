import "server-only";

import type { SyncStatusReply } from "@/lib/model/mirror-replies";

import { sessionOperation } from "../http/operation";
import { mirrorService } from "./instance";

/**
 * GET /api/sync — where the signed-in customer's mirror stands: state, coverage, rows, last head sync, last
 * verification, backfill progress (`off` when this session has no mirror). Never calls the upstream itself.
 */
export const syncStatus = sessionOperation({
  route: "GET /api/sync",
  input: { none: true },
  csrf: "same-site",
  priority: "interactive",
  run: ({ session }, _input: undefined): Promise<SyncStatusReply> => mirrorService().status(session),
});
