import "server-only";

import { z } from "zod";

import { readTextLimited } from "@/lib/read-limited";

import { BffError } from "../http/errors";
import { publicOperation } from "../http/operation";
import { setClockOffset } from "../platform/clock";

const Body = z
  .object({
    offsetMs: z
      .number()
      .int()
      .min(0)
      .max(366 * 86_400_000),
  })
  .strict();

/** The body `{offsetMs}`: how far to move the clock forward (at most a year). */
async function readOffset(request: Request): Promise<number> {
  const text = await readTextLimited(request.body, 1024, () => new BffError("payload_too_large", "Too large."));
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // answered below
  }
  const parsed = Body.safeParse(json);
  if (!parsed.success) throw new BffError("bad_request", "offsetMs must be a whole number of milliseconds.");
  return parsed.data.offsetMs;
}

/**
 * POST /api/test-hooks/clock — tests only (BFF_TEST_HOOKS against a local upstream, lib/bff/http/test-hooks.ts): moves the
 * BFF's clock forward. Without the token it is a 404, like an unknown path.
 */
export const setClock = publicOperation({
  route: "POST /api/test-hooks/clock",
  input: { body: readOffset },
  csrf: "test-hook",
  priority: "interactive",
  run: (_ctx, offsetMs): Promise<undefined> => {
    setClockOffset(offsetMs);
    return Promise.resolve(undefined);
  },
});
