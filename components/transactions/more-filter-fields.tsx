"use client";

import { useEffect, useState } from "react";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import type { TransactionFacetsReply } from "@/lib/model/mirror-replies";
import type { MirrorFilterValues } from "@/lib/queries/transaction-filters";
import { useTransactionFacets } from "@/lib/queries/transactions";

import { decimalProblem, plainDecimal, RANGE_PLACES, rangeOrderProblem } from "./mirror-filter-state";
import type { MoreFiltersProps } from "./more-filters";
import { SearchableFacet } from "./searchable-facet";

type SelectName = "dates" | "driver" | "card" | "truck" | "station" | "state" | "product";
type RangeName = keyof typeof RANGE_PLACES;
type Option = { value: string; label: string };

/** The selects, their words and their options from the facets (ids as values, names as labels). */
const SELECTS: readonly {
  name: SelectName;
  label: string;
  all: string;
  options: (f: TransactionFacetsReply) => Option[];
  /** Wider than the others where the choices' words need it (never cut off). */
  wide?: boolean;
  /** Thousands of choices: a field with suggestions (SearchableFacet) rather than a select. */
  searchable?: boolean;
}[] = [
  {
    name: "driver",
    label: "Driver",
    all: "All drivers",
    options: (f) =>
      f.drivers.map((d) => ({ value: d.id, label: d.truck === null ? d.name : `${d.name} (truck ${d.truck})` })),
  },
  {
    name: "card",
    label: "Card",
    all: "All cards",
    options: (f) => f.cards.map((last4) => ({ value: last4, label: `Ending in ${last4}` })),
  },
  { name: "truck", label: "Truck", all: "All trucks", options: (f) => f.trucks.map((t) => ({ value: t, label: t })) },
  {
    name: "station",
    label: "Station",
    all: "All stations",
    options: (f) => f.stations.map((s) => ({ value: s.id, label: `${s.name}, ${s.city}, ${s.state}` })),
    searchable: true,
  },
  { name: "state", label: "State", all: "All states", options: (f) => f.states.map((s) => ({ value: s, label: s })) },
  {
    name: "product",
    label: "Product",
    all: "All products",
    // The BFF compares products in small letters (and the URL keeps them so).
    options: (f) =>
      f.products.map((p) => ({ value: p.toLowerCase(), label: `${p.charAt(0).toUpperCase()}${p.slice(1)}` })),
  },
  {
    // The insight pages count a purchase on its own local date (lib/model/insights); their links set it.
    name: "dates",
    label: "Dates are",
    all: "Days in your time zone",
    options: () => [{ value: "local", label: "Each purchase's local date" }],
    wide: true,
  },
];

const RANGES: readonly { what: "amount" | "gallons"; min: RangeName; max: RangeName; unit: string }[] = [
  { what: "amount", min: "amountMin", max: "amountMax", unit: "$" },
  { what: "gallons", min: "gallonsMin", max: "gallonsMax", unit: "gal" },
];

/**
 * What "More filters" holds (more-filters.tsx), drawn from its first opening (and its facets asked for then): a chunk
 * of its own, so the list's page does not load it before someone opens the panel (issue 26: ≤ 200 kB of JavaScript).
 */
export function MoreFilterFields({ values, onChange }: MoreFiltersProps) {
  const facets = useTransactionFacets(true);
  return (
    <>
      <div className="mt-2 flex flex-wrap items-start gap-3">
        {SELECTS.map((select) => {
          const shared = {
            label: select.label,
            all: select.all,
            value: values[select.name],
            options: facets.data === undefined ? [] : select.options(facets.data),
            onChange: (value: string | null) => {
              onChange({ [select.name]: value });
            },
          };
          return select.searchable ? (
            <SearchableFacet key={select.name} {...shared} />
          ) : (
            <FacetSelect key={select.name} {...shared} wide={select.wide ?? false} />
          );
        })}
        {RANGES.map((range) => (
          <RangePair key={range.what} range={range} values={values} onChange={onChange} />
        ))}
      </div>
      {facets.isError ? (
        <p role="alert" className="mt-2 flex flex-wrap items-center gap-3 text-sm text-red-700 dark:text-red-300">
          The filters&apos; choices could not be loaded: {facets.error.message}
          <Button variant="secondary" onClick={() => void facets.refetch()} disabled={facets.isFetching}>
            {facets.isFetching ? "Trying again…" : "Try again"}
          </Button>
        </p>
      ) : null}
    </>
  );
}

function FacetSelect(props: {
  label: string;
  all: string;
  wide: boolean;
  value: string | null;
  options: Option[];
  onChange: (value: string | null) => void;
}) {
  // A value from a link that the choices do not hold (yet) stays selectable, so the select shows what filters.
  const options =
    props.value === null || props.options.some((option) => option.value === props.value)
      ? props.options
      : [{ value: props.value, label: props.value }, ...props.options];
  return (
    <Field label={props.label} className={props.wide ? "w-full sm:w-64" : "w-full sm:w-48"}>
      {(control) => (
        <select
          {...control}
          value={props.value ?? ""}
          onChange={(event) => {
            props.onChange(event.target.value === "" ? null : event.target.value);
          }}
        >
          <option value="">{props.all}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** "25." and ".5" as the BFF takes them ("25", "0.5"); empty is no bound. */
function normalizeDecimal(text: string): string | null {
  const trimmed = plainDecimal(text).replace(/\.$/, "");
  if (trimmed === "") return null;
  return trimmed.startsWith(".") ? `0${trimmed}` : trimmed;
}

/** What the list still uses while a range field is in error. */
function keptWords(committed: { min: string; max: string }, range: (typeof RANGES)[number]): string {
  const unit = (v: string) => (range.unit === "$" ? `$${v}` : `${v} ${range.unit}`);
  const { min, max } = committed;
  if (min === "" && max === "") return `The list below is not filtered by ${range.what} until this is fixed.`;
  const bounds = [min === "" ? null : `from ${unit(min)}`, max === "" ? null : `up to ${unit(max)}`].filter(Boolean);
  return `The list below still shows ${range.what === "amount" ? "amounts" : "gallons"} ${bounds.join(" ")} until this is fixed.`;
}

/** Typing pauses this long before a range goes into the URL (and fetches), as the search does. */
const RANGE_DEBOUNCE_MS = 400;

function RangePair({
  range,
  values,
  onChange,
}: {
  range: (typeof RANGES)[number];
  values: MirrorFilterValues;
  onChange: MoreFiltersProps["onChange"];
}) {
  const places = RANGE_PLACES[range.min];
  const committed = { min: values[range.min] ?? "", max: values[range.max] ?? "" };
  const [draft, setDraft] = useState(committed);
  // A change under the fields (Back, a link, "Clear filters") shows in them, adjusted during render as React advises.
  const [last, setLast] = useState(committed);
  if (committed.min !== last.min || committed.max !== last.max) {
    setLast(committed);
    setDraft(committed);
  }
  const minProblem = decimalProblem(draft.min, places);
  const maxProblem = decimalProblem(draft.max, places);
  const min = normalizeDecimal(draft.min);
  const max = normalizeDecimal(draft.max);
  const orderProblem = minProblem === null && maxProblem === null ? rangeOrderProblem(min, max, range.what) : null;
  // Only values the BFF takes, in order, go into the URL; otherwise the fields say what is wrong.
  const isValid = minProblem === null && maxProblem === null && orderProblem === null;
  const isChanged = (min ?? "") !== committed.min || (max ?? "") !== committed.max;
  // While a field is in error the list keeps its last valid range: said with the error, so the rows are not misread.
  const kept = (problem: string | null) => (problem === null ? null : `${problem} ${keptWords(committed, range)}`);
  useEffect(() => {
    if (!isValid || !isChanged) return;
    const timer = window.setTimeout(() => {
      onChange({ [range.min]: min, [range.max]: max }, "replace");
    }, RANGE_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, [isValid, isChanged, min, max, range.min, range.max, onChange]);
  const words = range.what === "amount" ? "amount" : "gallons";
  return (
    <>
      <RangeInput
        label={`Min ${words} (${range.unit})`}
        value={draft.min}
        error={kept(minProblem)}
        onChange={(text) => {
          setDraft((current) => ({ ...current, min: text }));
        }}
      />
      <RangeInput
        label={`Max ${words} (${range.unit})`}
        value={draft.max}
        error={kept(maxProblem ?? orderProblem)}
        onChange={(text) => {
          setDraft((current) => ({ ...current, max: text }));
        }}
      />
    </>
  );
}

function RangeInput(props: { label: string; value: string; error: string | null; onChange: (text: string) => void }) {
  return (
    <Field label={props.label} error={props.error} className="w-[calc(50%-0.375rem)] sm:w-36">
      {(control) => (
        <input
          {...control}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={props.value}
          onChange={(event) => {
            props.onChange(event.target.value);
          }}
        />
      )}
    </Field>
  );
}
