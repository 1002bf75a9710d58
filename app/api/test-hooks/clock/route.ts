import type { NextRequest } from "next/server";
import { z } from "zod";
import { setClockOffset } from "@/lib/bff/clock";
import { BffError, errorResponse } from "@/lib/bff/errors";
import { testHooksAllowed } from "@/lib/bff/test-hooks";
import { readTextLimited } from "@/lib/read-limited";

const Body = z
  .object({
    offsetMs: z
      .number()
      .int()
      .min(0)
      .max(366 * 86_400_000),
  })
  .strict();

// POST /api/test-hooks/clock — tests only (BFF_TEST_HOOKS against a local upstream, lib/bff/test-hooks.ts): moves the BFF's clock forward
export async function POST(request: NextRequest): Promise<Response> {
  if (!testHooksAllowed(request)) return errorResponse(new BffError("not_found", "Not found."));
  const text = await readTextLimited(request.body, 1024, () => new BffError("payload_too_large", "Too large."));
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // answered below
  }
  const parsed = Body.safeParse(json);
  if (!parsed.success)
    return errorResponse(new BffError("bad_request", "offsetMs must be a whole number of milliseconds."));
  setClockOffset(parsed.data.offsetMs);
  return new Response(null, { status: 204 });
}
