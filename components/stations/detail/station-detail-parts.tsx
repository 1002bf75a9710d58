import type { ReactNode } from "react";

import { TEXT_LINK_CLASSES } from "@/components/ui/text-link";

export const DETAIL_LINK_CLASSES = TEXT_LINK_CLASSES;

/** "tire_service" → "Tire service". */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An extra field of the upstream's station detail as text (null: "Not provided"); objects as their JSON. */
export function renderValue(value: unknown): ReactNode {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return <code className="break-all font-mono text-xs">{JSON.stringify(value)}</code>;
}
