"use client";

import { useState } from "react";

import type { Station } from "@/lib/model";

import { ProductModeNotice } from "../shared/product-mode-notice";
import type { NearbyRanking } from "../shared/ranking";
import type { ProductMode } from "../shared/use-product-mode";
import type { StationsView } from "../view-state";
import { NearbyPointForm } from "./nearby-point-form";
import { CatalogRanking, ProductPart } from "./nearby-results";

export interface NearbyPanelProps {
  view: StationsView;
  /** The stations shown (filters applied): places are looked up among them. */
  stations: readonly Station[];
  ranking: NearbyRanking;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onChange: (patch: Partial<StationsView>, mode?: "push" | "replace") => void;
  now: number;
  /** Null when the catalog's (diesel) price ranks. */
  productMode: ProductMode | null;
}

/**
 * "Cheapest near here": a point (typed, the browser's location, or a click on the map), a radius and a count give a
 * ranked table. It is the page's accessible path: every station the map shows can be reached, selected and opened
 * from here by keyboard, with the price, distance and comparison as text.
 */
export function NearbyPanel({
  view,
  stations,
  ranking,
  selectedId,
  onSelect,
  onChange,
  now,
  productMode,
}: NearbyPanelProps) {
  const [place, setPlace] = useState(view.nearLabel);
  // The point changed elsewhere (a map click, Back, a shared link): the field shows its label.
  const [lastLabel, setLastLabel] = useState(view.nearLabel);
  if (view.nearLabel !== lastLabel) {
    setLastLabel(view.nearLabel);
    setPlace(view.nearLabel);
  }
  const clearPoint = () => {
    setPlace("");
    onChange({ near: null, nearLabel: "" });
  };

  let results;
  if (productMode === null || productMode.status === "unavailable")
    results = (
      <CatalogRanking
        view={view}
        ranking={ranking}
        selectedId={selectedId}
        onSelect={onSelect}
        now={now}
        onClearPoint={clearPoint}
      />
    );
  else if (productMode.status === "ready")
    results = (
      <ProductPart
        view={view}
        mode={productMode}
        selectedId={selectedId}
        onSelect={onSelect}
        now={now}
        onClearPoint={clearPoint}
      />
    );
  else results = null;
  return (
    <div className="space-y-4">
      <NearbyPointForm view={view} stations={stations} place={place} setPlace={setPlace} onChange={onChange} />
      {productMode === null || productMode.status === "ready" ? null : <ProductModeNotice mode={productMode} />}
      {results}
    </div>
  );
}
