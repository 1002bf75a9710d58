"use client";

import { useId, useState } from "react";

import { Field } from "@/components/ui/field";
import { formatCountOf } from "@/lib/format/numbers";

interface Option {
  value: string;
  label: string;
}

/**
 * A filter with thousands of choices (the stations: 2,232 in the sandbox's catalog) as a text field with suggestions
 * (a native `<datalist>`: the browser filters them as one types, keyboard and screen readers included) instead of a
 * select one scrolls through. Only a suggestion's exact text filters the list; other text says so under the field and
 * leaves the list as it was. Emptying the field removes the filter.
 */
export function SearchableFacet(props: {
  label: string;
  all: string;
  value: string | null;
  options: Option[];
  onChange: (value: string | null) => void;
}) {
  const listId = useId();
  const labelOf = (value: string | null) =>
    value === null ? "" : (props.options.find((o) => o.value === value)?.label ?? value);
  const [draft, setDraft] = useState(labelOf(props.value));
  // A change from elsewhere (Back, a link, "Clear filters", the choices arriving) shows in the field. The field's own
  // choice coming back through the URL does not: the person may have typed on meanwhile, and that text stays.
  const [last, setLast] = useState({ value: props.value, count: props.options.length });
  const [sent, setSent] = useState<{ value: string | null } | null>(null);
  if (last.value !== props.value || last.count !== props.options.length) {
    setLast({ value: props.value, count: props.options.length });
    const isOwnChoice = sent !== null && sent.value === props.value && last.count === props.options.length;
    setSent(null);
    if (!isOwnChoice) setDraft(labelOf(props.value));
  }
  const choose = (value: string | null) => {
    setSent({ value });
    props.onChange(value);
  };
  const chosen = props.options.find((o) => o.label === draft.trim());
  const error =
    draft.trim() === "" || chosen !== undefined || props.options.length === 0
      ? null
      : `Pick one of the suggestions (type part of a name or city). The list below is ${props.value === null ? "not filtered by it" : `still filtered by ${labelOf(props.value)}`} until then.`;
  return (
    <Field
      label={props.label}
      hint={
        props.options.length === 0
          ? undefined
          : `${formatCountOf(props.options.length, "choice", "choices")}; type to narrow`
      }
      error={error}
      className="w-full sm:w-80"
    >
      {(control) => (
        <>
          <input
            {...control}
            type="search"
            list={listId}
            placeholder={props.all}
            autoComplete="off"
            value={draft}
            onChange={(event) => {
              const text = event.target.value;
              setDraft(text);
              if (text.trim() === "") {
                if (props.value !== null) choose(null);
                return;
              }
              const match = props.options.find((o) => o.label === text.trim());
              if (match !== undefined && match.value !== props.value) choose(match.value);
            }}
          />
          <datalist id={listId}>
            {props.options.map((option) => (
              <option key={option.value} value={option.label} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}
