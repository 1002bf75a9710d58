"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useId } from "react";

import { Field } from "@/components/ui/field";
import { LinkProblems } from "@/components/ui/link-problems";
import { useDebouncedSearch } from "@/components/ui/use-debounced-search";
import type { StationProduct } from "@/lib/model";
import { MAX_SEARCH_LENGTH } from "@/lib/model/limits";

import { brandName } from "./shared/brand-name";
import { DEFAULT_PRODUCT, productName } from "./shared/product-ranking";
import { type StationsView, stationsViewProblems } from "./view-state";

export interface StationFiltersProps {
  view: StationsView;
  brands: readonly string[];
  states: readonly string[];
  /**
   * The products the stations' details price (diesel first). Fewer than two: no product control at all, since the
   * catalog's one price is all there is.
   */
  products: readonly StationProduct[];
  onChange: (patch: Partial<StationsView>, mode?: "push" | "replace") => void;
}

export function StationFilters({ view, brands, states, products, onChange }: StationFiltersProps) {
  const commitSearch = useCallback(
    (search: string) => {
      onChange({ search }, "replace");
    },
    [onChange],
  );
  const [search, setSearch] = useDebouncedSearch(view.search, commitSearch);

  // What of the link the page could not use (issue 26), said where the filters it would have set are.
  const linkProblems = stationsViewProblems(useSearchParams());
  const hasProducts = products.length > 1;
  const hasFilters =
    view.brand !== null ||
    view.state !== null ||
    view.search !== "" ||
    (hasProducts && view.product !== DEFAULT_PRODUCT);
  return (
    <div role="search" aria-label="Filter stations" className="flex flex-wrap items-end gap-3">
      <LinkProblems problems={linkProblems} />
      <CodeSelect
        className="w-[calc(50%-0.375rem)] sm:w-40"
        label="Brand"
        allLabel="All brands"
        value={view.brand}
        codes={brands}
        nameOf={brandName}
        onChange={(brand) => {
          onChange({ brand });
        }}
      />
      <CodeSelect
        className="w-[calc(50%-0.375rem)] sm:w-32"
        label="State"
        allLabel="All states"
        value={view.state}
        codes={states}
        nameOf={(code) => code}
        onChange={(state) => {
          onChange({ state });
        }}
      />
      <SearchField value={search} onChange={setSearch} />
      {hasProducts ? (
        <ProductSelect
          products={products}
          value={view.product}
          onChange={(product) => {
            onChange({ product });
          }}
        />
      ) : null}
      {hasFilters ? (
        <button
          type="button"
          className="rounded-md px-3 py-2 text-sm font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800 dark:text-brand-300"
          onClick={() => {
            setSearch("");
            onChange({ brand: null, state: null, search: "", product: DEFAULT_PRODUCT });
          }}
        >
          Clear filters
        </button>
      ) : null}
    </div>
  );
}

/** A select over codes (brands, states) with an "all" choice first; "" in the control is null in the view. */
function CodeSelect({
  className,
  label,
  allLabel,
  value,
  codes,
  nameOf,
  onChange,
}: {
  className: string;
  label: string;
  allLabel: string;
  value: string | null;
  codes: readonly string[];
  nameOf: (code: string) => string;
  onChange: (code: string | null) => void;
}) {
  return (
    <Field label={label} className={className}>
      {(control) => (
        <select
          {...control}
          value={value ?? ""}
          onChange={(event) => {
            onChange(event.target.value === "" ? null : event.target.value);
          }}
        >
          <option value="">{allLabel}</option>
          {codes.map((code) => (
            <option key={code} value={code}>
              {nameOf(code)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function ProductSelect({
  products,
  value,
  onChange,
}: {
  products: readonly StationProduct[];
  value: StationProduct;
  onChange: (product: StationProduct) => void;
}) {
  const hintId = useId();
  return (
    <>
      <Field label="Product" className="w-full sm:w-48" describedBy={hintId}>
        {(control) => (
          <select
            {...control}
            value={products.includes(value) ? value : DEFAULT_PRODUCT}
            onChange={(event) => {
              onChange(event.target.value as StationProduct);
            }}
          >
            {products.map((product) => (
              <option key={product} value={product}>
                {product === DEFAULT_PRODUCT ? `${productName(product)} (catalog price)` : productName(product)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <p id={hintId} className="sr-only">
        Ranks the cheapest stations near a point by this product. Diesel is every station&apos;s catalog price; other
        products are checked in each station&apos;s details, nearest stations first.
      </p>
    </>
  );
}

function SearchField({ value, onChange }: { value: string; onChange: (draft: string) => void }) {
  const hintId = useId();
  return (
    <>
      <Field label="Search stations" className="w-full sm:w-72" describedBy={hintId}>
        {(control) => (
          <input
            {...control}
            type="search"
            value={value}
            maxLength={MAX_SEARCH_LENGTH}
            onChange={(event) => {
              onChange(event.target.value);
            }}
          />
        )}
      </Field>
      <p id={hintId} className="sr-only">
        Matches a station&apos;s name, city or location number.
      </p>
    </>
  );
}
