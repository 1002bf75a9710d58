import "server-only";

import { notFound } from "next/navigation";

import { credentialKey } from "@/lib/fleet-api";

import { logger } from "../platform/log";
import { type ActiveSession, readSession } from "../platform/session";

/**
 * For a detail page (`/stations/[id]`, `/transactions/[id]`) whose data the browser loads: looks the item up on the
 * server before anything is streamed, so an unknown id answers HTTP 404 with the not-found page instead of a 200 page
 * that says "not found". The lookup goes through the same cached lib function as the page's data route, so the
 * browser's request that follows costs no second upstream call.
 *
 * Returns what the lookup found within the page's wait. Only a definite "no such item" is a 404. Without a session the proxy has already sent the person to sign in; any
 * other failure (a missing scope, a rate limit, an outage) leaves the page to load and show it as it always does.
 */
export async function notFoundUnlessFound<T>(
  lookUp: (session: ActiveSession, key: string) => Promise<T>,
): Promise<T | undefined> {
  const result = await readSession({ readOnly: true });
  if ("problem" in result) return undefined;
  const { session } = result;
  // Inside then(): an id of the wrong form throws at once (not_found), which must settle the lookup, not escape it.
  const lookup = Promise.resolve()
    .then(() => lookUp(session, credentialKey(session.credentials)))
    .then(
      (found): { found: T } | false => ({ found }),
      (error: unknown) => {
        // By its code, not `instanceof`: a server page is bundled apart from the route handlers, and the process-wide
        // client and cache (on globalThis) may throw the FleetApiError class of the handlers' copy of lib/fleet-api.
        if (codeOf(error) === "not_found") return true;
        logger().debug(
          { error: error instanceof Error ? error.message : String(error) },
          "detail page lookup failed; the page shows it",
        );
        return false;
      },
    );
  const outcome = await withinPageWait(lookup);
  if (outcome === true) notFound();
  // What was found (a page may hand it to its view), or undefined when the lookup failed or is still running.
  return outcome === undefined || outcome === false ? undefined : outcome.found;
}

/**
 * How long a detail page waits for its lookup before it renders anyway (HTTP 200, with its own loading state): a full
 * request budget (an export running) or a slow upstream must not leave a blank page. The lookup goes on and fills the
 * cache, and the page's query joins it.
 */
const PAGE_LOOKUP_WAIT_MS = 2_000;

/**
 * A detail page's lookup, or undefined once PAGE_LOOKUP_WAIT_MS have passed (the page then renders with its own
 * loading state; the lookup goes on and fills the cache its query joins).
 */
export async function withinPageWait<T>(lookup: Promise<T>): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      resolve(undefined);
    }, PAGE_LOOKUP_WAIT_MS);
  });
  try {
    return await Promise.race([lookup, waited]);
  } finally {
    clearTimeout(timer);
  }
}

function codeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
}
