"use client";

import { useEffect, useState } from "react";

/** Typing pauses this long before a search goes into the URL (and fetches): long enough to skip the keystrokes of a
 * name, short enough to feel immediate. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * A search field's draft: what the user types, committed (trimmed) after a pause in typing. When the committed value
 * changes under the field (Back, a shared link, "Clear filters"), the draft shows it — adjusted during render, as React
 * recommends, instead of an effect that would show the stale text for a frame.
 */
export function useDebouncedSearch(
  value: string,
  onCommit: (search: string) => void,
): [string, (draft: string) => void] {
  const [draft, setDraft] = useState(value);
  const [lastValue, setLastValue] = useState(value);
  if (value !== lastValue) {
    setLastValue(value);
    setDraft(value);
  }
  useEffect(() => {
    const trimmed = draft.trim();
    if (trimmed === value) return;
    const timer = window.setTimeout(() => {
      onCommit(trimmed);
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, [draft, value, onCommit]);
  return [draft, setDraft];
}
