"use client";

import { useEffect } from "react";

import { applyTheme, useTheme } from "./theme";

/** Keeps the class on <html> in step with the chosen or system theme, in this tab and across tabs. */
export function ThemeSync() {
  const theme = useTheme();
  useEffect(() => {
    if (theme !== null) applyTheme(theme);
  }, [theme]);
  return null;
}
