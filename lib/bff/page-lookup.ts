import "server-only";
import { notFound } from "next/navigation";
import { credentialKey } from "@/lib/fleet-api";
import { logger } from "./log";
import { readSession, type ActiveSession } from "./session";

/**
 * For a detail page (`/stations/[id]`, `/transactions/[id]`) whose data the browser loads: looks the item up on the
 * server before anything is streamed, so an unknown id answers HTTP 404 with the not-found page instead of a 200 page
 * that says "not found". The lookup goes through the same cached lib function as the page's data route, so the
 * browser's request that follows costs no second upstream call.
 *
 * Only a definite "no such item" is a 404. Without a session the proxy has already sent the person to sign in; any
 * other failure (a missing scope, a rate limit, an outage) leaves the page to load and show it as it always does.
 */
export async function notFoundUnlessFound(lookUp: (session: ActiveSession, key: string) => Promise<unknown>): Promise<void> {
  const result = await readSession({ readOnly: true });
  if ("problem" in result) return;
  try {
    await lookUp(result.session, credentialKey(result.session.credentials));
  } catch (error) {
    // By its code, not `instanceof`: a server page is bundled apart from the route handlers, and the process-wide
    // client and cache (on globalThis) may throw the FleetApiError class of the handlers' copy of lib/fleet-api.
    if (codeOf(error) === "not_found") notFound();
    logger().debug({ error: error instanceof Error ? error.message : String(error) }, "detail page lookup failed; the page shows it");
  }
}

function codeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
}
