"use client";

import type { Route } from "next";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef } from "react";

/**
 * A page's view kept in its URL (shareable; Back/Forward move between views). `update` derives the next view from
 * the newest one asked for, not only from the URL: two changes in a row (a radius picked, then "Find" clicked before
 * the router has updated the URL) both land, instead of the second overwriting the first with a stale view.
 */
export function useUrlView<T>(
  parse: (params: Pick<URLSearchParams, "get">) => T,
  serialize: (view: T) => string,
): { view: T; update: (change: (current: T) => T, mode: "push" | "replace") => void } {
  const searchParams = useSearchParams();
  const router = useRouter();
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
      const href = (query === "" ? pathname : `${pathname}?${query}`) as Route;
      if (mode === "push") router.push(href, { scroll: false });
      else router.replace(href, { scroll: false });
    },
    [pathname, router, serialize, view],
  );
  return { view, update };
}
