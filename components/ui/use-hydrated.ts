"use client";

import { useSyncExternalStore } from "react";

function subscribeNever(): () => void {
  return () => undefined;
}

/**
 * False on the server and while hydrating, true from the client's next render on. For a value the server cannot know
 * that reaches a component hydrated late: a query the page shares with the header (the session) may already have
 * its answer when a Suspense boundary further down hydrates, and TanStack Query hands that answer to the hydrating
 * render too, so its text would differ from the server's HTML (React's hydration error #418).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}
