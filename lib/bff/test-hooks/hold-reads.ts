import "server-only";

import { z } from "zod";

import { readTextLimited } from "@/lib/read-limited";

import { BffError } from "../http/errors";
import { publicOperation } from "../http/operation";
import { type OffThreadStats, offThreadStats } from "../platform/off-thread/pool";
import { holdReads, readsWaiting } from "../platform/read-gate";

const Body = z.object({ hold: z.boolean().optional() }).strict();

async function readHold(request: Request): Promise<boolean | undefined> {
  const text = await readTextLimited(request.body, 1024, () => new BffError("payload_too_large", "Too large."));
  let json: unknown = null;
  try {
    json = JSON.parse(text === "" ? "{}" : text);
  } catch {
    // answered below
  }
  const parsed = Body.safeParse(json);
  if (!parsed.success) throw new BffError("bad_request", 'The body must be {"hold": true} or {"hold": false} (or {}).');
  return parsed.data.hold;
}

/**
 * POST /api/test-hooks/reads — tests only (BFF_TEST_HOOKS against a local upstream, lib/bff/http/test-hooks.ts): `{hold}`
 * closes or opens the gate every mirror read waits at after taking its slot (lib/bff/platform/read-gate); answers how many
 * wait there and what the worker pool has run. Without the token it is a 404, like an unknown path.
 */
export const holdReadsHook = publicOperation({
  route: "POST /api/test-hooks/reads",
  input: { body: readHold },
  csrf: "test-hook",
  priority: "interactive",
  run: (_ctx, hold): Promise<{ waiting: number; pool: OffThreadStats }> => {
    if (hold !== undefined) holdReads(hold);
    return Promise.resolve({ waiting: readsWaiting(), pool: offThreadStats() });
  },
});
