import { useCallback, useSyncExternalStore } from "react";

/**
 * Whether the viewport matches a media query; null on the server and while the page hydrates (the server cannot
 * know), so a caller renders what CSS alone can choose from until then, and the first client render matches the
 * server's HTML (no hydration mismatch). React's useSyncExternalStore re-renders on each change of the query.
 */
export function useMediaQuery(query: string): boolean | null {
  // Stable for a query: a new subscribe function on each render would make React subscribe again on each render.
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => {
        list.removeEventListener("change", onChange);
      };
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => null,
  );
}
