"use client";

import { useSyncExternalStore } from "react";

import { browserTimeZone } from "@/lib/format/time-zone-preference";

/** The browser's zone does not change while a page is open: nothing to subscribe to. */
function subscribeNever(): () => void {
  return () => undefined;
}

function serverSnapshot(): null {
  return null;
}

/**
 * The browser's own zone, or null on the server and while the page hydrates: the server renders without it, and the
 * first render in the browser must match the server's HTML (else React error #418 and a client re-render). React
 * renders again with the zone right after hydrating; a page opened by client navigation has it from the start.
 */
export function useBrowserTimeZone(): string | null {
  return useSyncExternalStore(subscribeNever, browserTimeZone, serverSnapshot);
}
