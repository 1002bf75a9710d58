import type { NextRequest } from "next/server";
import { z } from "zod";
import { setClockOffset } from "@/lib/bff/clock";
import { getConfig } from "@/lib/bff/config";
import { BffError, errorResponse } from "@/lib/bff/errors";

const Body = z.object({ offsetMs: z.number().int().min(0).max(366 * 86_400_000) }).strict();

// POST /api/test-hooks/clock — tests only (BFF_TEST_HOOKS against a local upstream): moves the BFF's clock forward
export async function POST(request: NextRequest): Promise<Response> {
  if (!getConfig().testHooks) return errorResponse(new BffError("not_found", "Not found."));
  const parsed = Body.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return errorResponse(new BffError("bad_request", "offsetMs must be a whole number of milliseconds."));
  setClockOffset(parsed.data.offsetMs);
  return new Response(null, { status: 204 });
}
