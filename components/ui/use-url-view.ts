"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef } from "react";

/**
 * A page's view kept in its URL (shareable; Back/Forward move between views). `update` derives the next view from
 * the newest one asked for, not only from the URL: two changes in a row (a radius picked, then "Find" clicked before
 * the router has updated the URL) both land, instead of the second overwriting the first with a stale view.
 *
 * The URL changes through the browser's own History API, which Next's router follows (useSearchParams updates):
 * the view is the client's business, so a filter change or a selected station costs no server round trip (the
 * stations page renders per request, so `router.replace` would re-render it on the server for every click).
 */
export function useUrlView<T>(
  parse: (params: Pick<URLSearchParams, "get">) => T,
  serialize: (view: T) => string,
): { view: T; update: (change: (current: T) => T, mode: "push" | "replace") => void } {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const view = useMemo(() => parse(searchParams), [parse, searchParams]);
  /** The view asked for that the URL may not show yet; cleared when the URL changes. */
  const pending = useRef<T | null>(null);
  useEffect(() => {
    pending.current = null;
  }, [searchParams]);

  const update = useCallback(
    (change: (current: T) => T, mode: "push" | "replace") => {
      const next = change(pending.current ?? view);
      pending.current = next;
      const query = serialize(next);
      const href = query === "" ? pathname : `${pathname}?${query}`;
      if (mode === "push") window.history.pushState(null, "", href);
      else window.history.replaceState(null, "", href);
    },
    [pathname, serialize, view],
  );
  return { view, update };
}
