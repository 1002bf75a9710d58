"use client";

import { useId, useMemo } from "react";
import { FIELD_CLASSES, LABEL_CLASSES } from "@/components/ui/field";
import { useDebouncedSearch } from "@/components/ui/use-debounced-search";
import type { TransactionStatus } from "@/lib/model";
import { formatZoneName } from "@/lib/format/dates";
import { timeZoneChoices } from "@/lib/format/time-zone-preference";
import {
  MAX_SEARCH_LENGTH,
  RANGE_LABELS,
  RANGE_PRESETS,
  resolveRange,
  STATUS_OPTIONS,
  type ListState,
  type RangePreset,
} from "./list-state";

export interface TransactionFiltersProps {
  state: ListState;
  onChange: (
    patch: Partial<Pick<ListState, "range" | "from" | "to" | "status" | "search">>,
    mode?: "push" | "replace",
  ) => void;
  onTimeZoneChange: (tz: string) => void;
}

export function TransactionFilters({ state, onChange, onTimeZoneChange }: TransactionFiltersProps) {
  const ids = {
    range: useId(),
    status: useId(),
    search: useId(),
    from: useId(),
    to: useId(),
    hint: useId(),
    zone: useId(),
  };
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
            // "Custom" starts from the days on screen, so the list does not change until a date is picked.
            const current = resolveRange(state);
            onChange({
              range,
              from: range === "custom" ? current.from : null,
              to: range === "custom" ? current.to : null,
            });
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
                onChange({
                  range: "custom",
                  from: event.target.value === "" ? null : event.target.value,
                  to: state.to,
                });
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
                onChange({
                  range: "custom",
                  from: state.from,
                  to: event.target.value === "" ? null : event.target.value,
                });
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
      <SearchField
        id={ids.search}
        value={state.search}
        onSearch={(search) => {
          onChange({ search }, "replace");
        }}
      />
      <TimeZoneField id={ids.zone} hintId={ids.hint} value={state.tz} onChange={onTimeZoneChange} />
      <p id={ids.hint} className="w-full text-xs text-slate-600 dark:text-slate-400" data-testid="date-hint">
        Days in {state.tz}, both ends included; times are shown in this zone too.
      </p>
    </div>
  );
}

function TimeZoneField({
  id,
  hintId,
  value,
  onChange,
}: {
  id: string;
  hintId: string;
  value: string;
  onChange: (zone: string) => void;
}) {
  // About 400 zones, each labelled with its offset now: worked out once per chosen zone.
  const choices = useMemo(() => {
    const { common, other } = timeZoneChoices(value);
    const label = (zone: string) => ({ zone, label: formatZoneName(zone) });
    return { common: common.map(label), other: other.map(label) };
  }, [value]);
  return (
    <div className="w-full sm:w-64">
      <label htmlFor={id} className={LABEL_CLASSES}>
        Time zone
      </label>
      <select
        id={id}
        aria-describedby={hintId}
        className={FIELD_CLASSES}
        value={value}
        onChange={(event) => {
          onChange(event.target.value);
        }}
      >
        <optgroup label="Common">
          {choices.common.map(({ zone, label }) => (
            <option key={zone} value={zone}>
              {label}
            </option>
          ))}
        </optgroup>
        <optgroup label="Every zone">
          {choices.other.map(({ zone, label }) => (
            <option key={zone} value={zone}>
              {label}
            </option>
          ))}
        </optgroup>
      </select>
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
