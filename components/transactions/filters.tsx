"use client";

import { type ReactNode, useId, useMemo, useState } from "react";

import { Field } from "@/components/ui/field";
import { useDebouncedSearch } from "@/components/ui/use-debounced-search";
import { formatZoneName } from "@/lib/format/dates";
import { commonTimeZones, otherTimeZones } from "@/lib/format/time-zone-preference";
import type { TransactionStatus } from "@/lib/model";
import { MAX_SEARCH_LENGTH } from "@/lib/model/limits";

import {
  type ListState,
  RANGE_LABELS,
  RANGE_PRESETS,
  type RangePreset,
  resolveRange,
  STATUS_OPTIONS,
} from "./list-state";
import type { FilterPatch } from "./use-list-state";

export interface TransactionFiltersProps {
  state: ListState;
  onChange: (patch: FilterPatch, mode?: "push" | "replace") => void;
  onTimeZoneChange: (tz: string) => void;
  /** The browser's own zone, offered first; null while the page hydrates (see useBrowserTimeZone). */
  browserZone: string | null;
  /** The filters only the local copy answers, or the line that says why they are not offered (see MirrorFilterBar). */
  more?: ReactNode;
}

export function TransactionFilters({ state, onChange, onTimeZoneChange, browserZone, more }: TransactionFiltersProps) {
  // One hint under the bar describes the date fields and the zone: days are counted in that zone.
  const hintId = useId();
  const searchHintId = useId();
  return (
    <div role="search" aria-label="Filter transactions" className="flex flex-wrap items-end gap-3">
      <RangeFields state={state} onChange={onChange} hintId={hintId} />
      <Field label="Status" className="w-full sm:w-40">
        {(control) => (
          <select
            {...control}
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
        )}
      </Field>
      <SearchField
        hintId={searchHintId}
        value={state.search}
        onSearch={(search) => {
          onChange({ search }, "replace");
        }}
      />
      <TimeZoneField hintId={hintId} value={state.tz} browserZone={browserZone} onChange={onTimeZoneChange} />
      <p id={hintId} className="w-full text-xs text-slate-600 dark:text-slate-400" data-testid="date-hint">
        {state.mirror.dates === "local"
          ? `Each purchase's own local date, both ends included; times are shown in ${state.tz}.`
          : `Days in ${state.tz}, both ends included; times are shown in this zone too.`}
      </p>
      <p id={searchHintId} className="w-full text-xs text-slate-600 dark:text-slate-400" data-testid="search-hint">
        {SEARCH_HINT}
      </p>
      {more}
    </div>
  );
}

/** The preset range, and the two days of a custom one. */
function RangeFields({
  state,
  onChange,
  hintId,
}: {
  state: ListState;
  onChange: (patch: FilterPatch) => void;
  hintId: string;
}) {
  const dayChange = (end: "from" | "to") => (value: string) => {
    onChange({ range: "custom", from: state.from, to: state.to, [end]: value === "" ? null : value });
  };
  return (
    <>
      <Field label="Date range" describedBy={hintId} className="w-full sm:w-44">
        {(control) => (
          <select
            {...control}
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
        )}
      </Field>
      {state.range === "custom" ? (
        <>
          <DayField label="From" hintId={hintId} value={state.from} max={state.to} onChange={dayChange("from")} />
          <DayField label="To" hintId={hintId} value={state.to} min={state.from} onChange={dayChange("to")} />
        </>
      ) : null}
    </>
  );
}

function DayField(props: {
  label: string;
  hintId: string;
  value: string | null;
  min?: string | null;
  max?: string | null;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={props.label} describedBy={props.hintId} className="w-[calc(50%-0.375rem)] sm:w-40">
      {(control) => (
        <input
          {...control}
          type="date"
          value={props.value ?? ""}
          min={props.min ?? undefined}
          max={props.max ?? undefined}
          onChange={(event) => {
            props.onChange(event.target.value);
          }}
        />
      )}
    </Field>
  );
}

function TimeZoneField({
  hintId,
  value,
  browserZone,
  onChange,
}: {
  hintId: string;
  value: string;
  browserZone: string | null;
  onChange: (zone: string) => void;
}) {
  // About 400 zones, each labelled with its offset now: one Intl.DateTimeFormat each, the longest task of this page's
  // load on a phone. The common zones are there from the start, every zone once the field gets focus (the keyboard's
  // way in) or a pointer, before its list opens.
  const [showAll, setShowAll] = useState(false);
  const choices = useMemo(() => {
    const common = commonTimeZones(value, browserZone);
    const label = (zone: string) => ({ zone, label: formatZoneName(zone) });
    return { common: common.map(label), other: showAll ? otherTimeZones(common).map(label) : [] };
  }, [value, browserZone, showAll]);
  const revealAll = () => {
    setShowAll(true);
  };
  return (
    <Field label="Time zone" describedBy={hintId} className="w-full sm:w-64">
      {(control) => (
        <select
          {...control}
          value={value}
          onFocus={revealAll}
          onPointerDown={revealAll}
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
          {choices.other.length === 0 ? null : (
            <optgroup label="Every zone">
              {choices.other.map(({ zone, label }) => (
                <option key={zone} value={zone}>
                  {label}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      )}
    </Field>
  );
}

/**
 * What Search matches, whichever source answers: the provider's search fields (lib/bff/mirror-serve/filter keeps the
 * local copy to the same ones, so both sources list the same rows) and a reference (the BFF's lookup). Not a city or a
 * state: the Station and State filters do that.
 */
export const SEARCH_HINT =
  "Search matches a station's name, a driver's name, a card's last four digits or a reference — not a city or state: for those, use Station or State under More filters.";

function SearchField({
  value,
  onSearch,
  hintId,
}: {
  value: string;
  onSearch: (search: string) => void;
  hintId: string;
}) {
  const [draft, setDraft] = useDebouncedSearch(value, onSearch);
  return (
    <Field label="Search" describedBy={hintId} className="w-full sm:w-64">
      {(control) => (
        <input
          {...control}
          type="search"
          placeholder="Station, driver or card last four"
          maxLength={MAX_SEARCH_LENGTH}
          value={draft}
          onChange={(event) => {
            setDraft(event.target.value);
          }}
        />
      )}
    </Field>
  );
}
