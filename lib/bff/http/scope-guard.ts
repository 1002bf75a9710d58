import "server-only";

import { FleetApiError } from "@/lib/fleet-api";

import type { ActiveSession } from "../platform/session";
import { type MirrorService, mirrorService } from "../sync";
import { fromUpstream } from "./errors";
import type { SessionOperation } from "./operation";

/**
 * A key the upstream refused the transactions scope reads nothing made of transactions — not even from the local copy
 * another key of its customer filled (issue 24 item 1): the route adapter calls this before the input is read or the
 * operation runs, so an operation declaring `reads: "transactions"` answers 403 to such a key, with the sentence the
 * upstream's own refusal gets (the scope in the upstream's naming).
 */
export async function refuseWithoutTransactionsScope(
  operation: Pick<SessionOperation<unknown, unknown>, "reads">,
  session: ActiveSession,
  service: Pick<MirrorService, "transactionsVerdict" | "transactionsScopeName"> = mirrorService(),
): Promise<void> {
  if (operation.reads !== "transactions") return;
  if ((await service.transactionsVerdict(session)) !== "refused") return;
  const scope = service.transactionsScopeName();
  throw fromUpstream(
    new FleetApiError({ status: 403, code: "scope_denied", message: `This API key lacks the ${scope} scope.`, scope }),
  );
}
