import { useSyncExternalStore } from "react";

/**
 * Light/dark theme: the system's preference unless the user picked one with the toggle (kept in localStorage).
 * The effective theme is applied as a class on <html> (`dark` or `light`); before hydration, CSS follows the system
 * on its own (see the `dark` variant in app/globals.css), so system-dark users never see a light flash.
 */
export type Theme = "light" | "dark";

const STORAGE_KEY = "ffd-theme";
/** Same-tab change notification (the `storage` event only fires in other tabs). */
const CHANGE_EVENT = "ffd-theme-change";
const DARK_QUERY = "(prefers-color-scheme: dark)";

function readStoredTheme(): Theme | null {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return value === "light" || value === "dark" ? value : null;
  } catch {
    // Storage can be disabled (privacy settings): fall back to the system.
    return null;
  }
}

function resolveTheme(): Theme {
  return readStoredTheme() ?? (window.matchMedia(DARK_QUERY).matches ? "dark" : "light");
}

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(DARK_QUERY);
  media.addEventListener("change", onChange);
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    media.removeEventListener("change", onChange);
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

/** The effective theme; null while rendering on the server and during hydration (the server cannot know it). */
export function useTheme(): Theme | null {
  return useSyncExternalStore(subscribe, resolveTheme, () => null);
}

export function chooseTheme(theme: Theme): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    // Not remembered, but still applied for this page.
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle("dark", theme === "dark");
  root.classList.toggle("light", theme === "light");
}
