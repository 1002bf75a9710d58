import "server-only";

import { BffError } from "./errors";
import { mirrorService } from "./mirror/instance";
import type { ScopeVerdict } from "./mirror/key-scope";
import type { SessionOperation } from "./operation";
import type { ActiveSession } from "./session";

/**
 * A key the upstream refused the transactions scope reads nothing made of transactions — not even from the local copy
 * another key of its customer filled (issue 24 item 1): the route adapter calls this before the input is read or the
 * operation runs, so an operation declaring `reads: "transactions"` answers 403 to such a key.
 */
export async function refuseWithoutTransactionsScope(
  operation: Pick<SessionOperation<unknown, unknown>, "reads">,
  session: ActiveSession,
  verdictOf: (session: ActiveSession) => Promise<ScopeVerdict> = (s) => mirrorService().transactionsVerdict(s),
): Promise<void> {
  if (operation.reads !== "transactions") return;
  if ((await verdictOf(session)) === "refused")
    throw new BffError(
      "scope_denied",
      "Your API key lacks the transactions scope. Ask your Fleet Fuel administrator for a key that includes it.",
    );
}
