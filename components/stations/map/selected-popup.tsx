"use client";

import Link from "next/link";
import { useEffect, useMemo, useRef } from "react";
import { Popup, useMap } from "react-leaflet";

import { TEXT_LINK_CLASSES } from "@/components/ui/text-link";
import { describeAge } from "@/lib/format/dates";
import { formatUnitPrice } from "@/lib/format/numbers";

import { brandName } from "../shared/brand-name";
import type { MapInnerProps } from "./map-props";

/** The popup of the selected station; selecting from the list brings the station into view first. */
export function SelectedPopup({
  stations,
  selectedId,
  onSelect,
  scale,
  staleIds,
  now,
  describeProduct,
}: MapInnerProps) {
  const map = useMap();
  const station = useMemo(
    () => (selectedId === null ? null : (stations.find((s) => s.id === selectedId) ?? null)),
    [stations, selectedId],
  );
  const selectedRef = useRef(selectedId);
  useEffect(() => {
    selectedRef.current = selectedId;
  }, [selectedId]);

  useEffect(() => {
    if (station === null) return;
    if (!map.getBounds().pad(-0.1).contains([station.lat, station.lng])) map.panTo([station.lat, station.lng]);
  }, [map, station]);

  if (station === null) return null;
  const price = station.price === null ? null : Number(station.price);
  const classIndex = scale.classOf(price);
  const priceClass = scale.classes[classIndex];
  const isStale = staleIds.has(station.id);
  return (
    <Popup
      key={station.id}
      position={[station.lat, station.lng]}
      eventHandlers={{
        // Closed by its ×, Escape or a click elsewhere; not when another station replaced it.
        remove: () => {
          if (selectedRef.current === station.id) onSelect(null);
        },
      }}
    >
      <div data-testid="station-popup" className="space-y-1 text-sm">
        <p className="text-base font-semibold">{station.name}</p>
        <p>
          {brandName(station.brand)} · #{station.locNum} · {station.city}, {station.state}
        </p>
        <p>
          {describeProduct === null ? null : "Diesel "}
          <span className="font-semibold">{station.price === null ? "No price" : formatUnitPrice(station.price)}</span>
          {priceClass === undefined ? null : ` · price class ${priceClass.label} of ${String(scale.classes.length)}`}
        </p>
        {describeProduct === null ? null : <p data-testid="popup-product">{describeProduct(station.id)}</p>}
        <p>
          {station.priceUpdatedAt === null ? "Never updated" : `Updated ${describeAge(station.priceUpdatedAt, now)}`}
          {isStale ? " (stale)" : ""}
        </p>
        <p>
          <Link href={`/stations/${encodeURIComponent(station.id)}`} className={TEXT_LINK_CLASSES}>
            Station details
          </Link>
        </p>
      </div>
    </Popup>
  );
}
