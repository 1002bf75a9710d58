"use client";

import { useId } from "react";

import type { StationsMode } from "./view-state";

const MODES: readonly { mode: StationsMode; label: string }[] = [
  { mode: "near", label: "Cheapest near here" },
  { mode: "route", label: "Route" },
];

/**
 * "Cheapest near here" or "Route": a segmented control made of radio buttons, so the keyboard works as for any radio
 * group (Tab to it, arrows to switch) and screen readers announce the choice and its group.
 */
export function RouteModeSwitch({ mode, onChange }: { mode: StationsMode; onChange: (mode: StationsMode) => void }) {
  const name = useId();
  return (
    <fieldset className="print:hidden">
      <legend className="sr-only">What to look for</legend>
      <div className="inline-flex rounded-lg border border-slate-300 bg-white p-1 dark:border-slate-600 dark:bg-slate-900">
        {MODES.map((option) => (
          <label key={option.mode} className="relative">
            <input
              type="radio"
              name={name}
              value={option.mode}
              checked={mode === option.mode}
              onChange={() => {
                onChange(option.mode);
              }}
              className="peer sr-only"
            />
            <span className="block cursor-pointer rounded-md px-3 py-1.5 text-sm font-semibold text-slate-800 peer-checked:bg-brand-700 peer-checked:text-white peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700 dark:text-slate-100 dark:peer-checked:bg-brand-400 dark:peer-checked:text-slate-950 dark:peer-focus-visible:outline-brand-300">
              {option.label}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
