"use client";

import { useState } from "react";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { DEFAULT_TRUCK, type TruckProfile } from "@/lib/route";

import { readTruckDraft, TRUCK_FIELDS, type TruckDraft, truckToDraft } from "./route-truck";
import { CIRCUITY_RANGE, CORRIDOR_RANGE, DEFAULT_ROUTE_VIEW, type RouteView } from "./route-view-state";

const NUMBER_INPUT = { inputMode: "decimal" as const, autoComplete: "off", maxLength: 8 };

/** Keeps a typed draft while the value it came from is unchanged; a new value (Back, a link, a reset) replaces it. */
function useDraft<T, D>(value: T, toDraft: (value: T) => D): readonly [D, (next: D) => void] {
  const key = JSON.stringify(value);
  const [state, setState] = useState({ key, draft: toDraft(value) });
  if (state.key !== key) setState({ key, draft: toDraft(value) });
  const draft = state.key === key ? state.draft : toDraft(value);
  return [
    draft,
    (next: D) => {
      setState({ key, draft: next });
    },
  ] as const;
}

export interface RouteTruckFormProps {
  truck: TruckProfile;
  /** The truck is in the link (the person chose "include truck in link", or opened such a link). */
  inLink: boolean;
  onTruckChange: (truck: TruckProfile) => void;
  onInLinkChange: (inLink: boolean) => void;
}

/** The truck: each field checked as typed; a valid truck is used (and remembered in this browser) at once. */
export function RouteTruckForm({ truck, inLink, onTruckChange, onInLinkChange }: RouteTruckFormProps) {
  const [fields, setDraft] = useDraft(truck, truckToDraft);
  const { errors } = readTruckDraft(fields);
  const defaults = truckToDraft(DEFAULT_TRUCK);
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold text-slate-900 dark:text-slate-100">Truck (kept in this browser)</legend>
      <div className="grid grid-cols-2 gap-3">
        {TRUCK_FIELDS.map(({ field, label, unit }) => (
          <Field
            key={field}
            label={`${label} (${unit})`}
            hint={`Default ${unit === "$/h" ? "$" : ""}${defaults[field]}`}
            error={errors[field] ?? null}
          >
            {(control) => (
              <input
                {...control}
                {...NUMBER_INPUT}
                value={fields[field]}
                onChange={(event) => {
                  const next: TruckDraft = { ...fields, [field]: event.target.value };
                  setDraft(next);
                  const checked = readTruckDraft(next).truck;
                  if (checked !== null) onTruckChange(checked);
                }}
              />
            )}
          </Field>
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          className="px-3 py-1"
          onClick={() => {
            setDraft(defaults);
            onTruckChange(DEFAULT_TRUCK);
          }}
        >
          Use the defaults
        </Button>
        <label className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-200">
          <input
            type="checkbox"
            checked={inLink}
            onChange={(event) => {
              onInLinkChange(event.target.checked);
            }}
          />
          Include truck in link
        </label>
      </div>
    </fieldset>
  );
}

/** A number field of the route (corridor, circuity): applied when valid, else a message saying what is allowed. */
function RouteNumberField({
  label,
  hint,
  value,
  range,
  unit,
  onValue,
}: {
  label: string;
  hint: string;
  value: number;
  range: { min: number; max: number };
  unit: string;
  onValue: (value: number) => void;
}) {
  const [text, setDraft] = useDraft(value, String);
  const n = Number(text.trim());
  const valid = text.trim() !== "" && Number.isFinite(n) && n >= range.min && n <= range.max;
  return (
    <Field
      label={label}
      hint={hint}
      error={valid ? null : `${label} must be a number from ${String(range.min)} to ${String(range.max)}${unit}.`}
      className="w-40"
    >
      {(control) => (
        <input
          {...control}
          {...NUMBER_INPUT}
          value={text}
          onChange={(event) => {
            setDraft(event.target.value);
            const next = Number(event.target.value.trim());
            if (event.target.value.trim() !== "" && Number.isFinite(next) && next >= range.min && next <= range.max)
              onValue(next);
          }}
        />
      )}
    </Field>
  );
}

/** How wide the corridor is and how much longer than a straight line a detour's roads are. */
export function RouteCorridorFields({
  route,
  onRouteChange,
}: {
  route: RouteView;
  onRouteChange: (route: RouteView) => void;
}) {
  return (
    <div className="flex flex-wrap gap-3">
      <RouteNumberField
        label="Corridor width"
        hint={`Miles either side of the path (default ${String(DEFAULT_ROUTE_VIEW.corridor)}).`}
        value={route.corridor}
        range={CORRIDOR_RANGE}
        unit=" mi"
        onValue={(corridor) => {
          onRouteChange({ ...route, corridor });
        }}
      />
      <RouteNumberField
        label="Circuity"
        hint={`Road miles per straight-line mile of a detour (default ${String(DEFAULT_ROUTE_VIEW.circuity)}).`}
        value={route.circuity}
        range={CIRCUITY_RANGE}
        unit=""
        onValue={(circuity) => {
          onRouteChange({ ...route, circuity });
        }}
      />
    </div>
  );
}
