"use client";

import { useId } from "react";
import { FIELD_CLASSES, LABEL_CLASSES, useDebouncedSearch } from "@/components/ui/form";
import type { TransactionStatus } from "@/lib/model";
import { MAX_SEARCH_LENGTH, RANGE_LABELS, RANGE_PRESETS, STATUS_OPTIONS, type ListState, type RangePreset } from "./list-state";

/** Long enough to skip the intermediate keystrokes of a name, short enough to feel immediate. */

export interface TransactionFiltersProps {
  state: ListState;
  onChange: (patch: Partial<Pick<ListState, "range" | "from" | "to" | "status" | "search">>, mode?: "push" | "replace") => void;
}

export function TransactionFilters({ state, onChange }: TransactionFiltersProps) {
  const ids = { range: useId(), status: useId(), search: useId(), from: useId(), to: useId(), hint: useId() };
  return (
    <div role="search" aria-label="Filter transactions" className="flex flex-wrap items-end gap-3">
      <div className="w-full sm:w-44">
        <label htmlFor={ids.range} className={LABEL_CLASSES}>
          Date range
        </label>
        <select
          id={ids.range}
          aria-describedby={ids.hint}
          className={FIELD_CLASSES}
          value={state.range}
          onChange={(event) => {
            const range = event.target.value as RangePreset;
            onChange({ range, from: range === "custom" ? state.from : null, to: range === "custom" ? state.to : null });
          }}
        >
          {RANGE_PRESETS.map((preset) => (
            <option key={preset} value={preset}>
              {RANGE_LABELS[preset]}
            </option>
          ))}
        </select>
      </div>
      {state.range === "custom" ? (
        <>
          <div className="w-[calc(50%-0.375rem)] sm:w-40">
            <label htmlFor={ids.from} className={LABEL_CLASSES}>
              From
            </label>
            <input
              id={ids.from}
              type="date"
              aria-describedby={ids.hint}
              className={FIELD_CLASSES}
              value={state.from ?? ""}
              max={state.to ?? undefined}
              onChange={(event) => {
                onChange({ range: "custom", from: event.target.value === "" ? null : event.target.value, to: state.to });
              }}
            />
          </div>
          <div className="w-[calc(50%-0.375rem)] sm:w-40">
            <label htmlFor={ids.to} className={LABEL_CLASSES}>
              To
            </label>
            <input
              id={ids.to}
              type="date"
              aria-describedby={ids.hint}
              className={FIELD_CLASSES}
              value={state.to ?? ""}
              min={state.from ?? undefined}
              onChange={(event) => {
                onChange({ range: "custom", from: state.from, to: event.target.value === "" ? null : event.target.value });
              }}
            />
          </div>
        </>
      ) : null}
      <div className="w-full sm:w-40">
        <label htmlFor={ids.status} className={LABEL_CLASSES}>
          Status
        </label>
        <select
          id={ids.status}
          className={FIELD_CLASSES}
          value={state.status ?? ""}
          onChange={(event) => {
            const value = event.target.value;
            onChange({ status: value === "" ? null : (value as TransactionStatus) });
          }}
        >
          <option value="">All statuses</option>
          {STATUS_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <SearchField id={ids.search} value={state.search} onSearch={(search) => { onChange({ search }, "replace"); }} />
      <p id={ids.hint} className="w-full text-xs text-slate-600 dark:text-slate-400">
        Dates are whole days in UTC, both ends included.
      </p>
    </div>
  );
}

function SearchField({ id, value, onSearch }: { id: string; value: string; onSearch: (search: string) => void }) {
  const [draft, setDraft] = useDebouncedSearch(value, onSearch);

  return (
    <div className="w-full sm:w-64">
      <label htmlFor={id} className={LABEL_CLASSES}>
        Search
      </label>
      <input
        id={id}
        type="search"
        className={FIELD_CLASSES}
        placeholder="Station, driver or card last four"
        maxLength={MAX_SEARCH_LENGTH}
        value={draft}
        onChange={(event) => {
          setDraft(event.target.value);
        }}
      />
    </div>
  );
}
