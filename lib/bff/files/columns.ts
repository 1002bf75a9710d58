import { formatCardNumber } from "@/lib/format/file-names";
import type { Transaction } from "@/lib/model";

/** The export's columns: one list for both formats, so a CSV and an XLSX of the same rows say the same. */

export type ColumnKind = "date" | "text" | "volume" | "price" | "money";

export interface ExportColumn {
  header: string;
  kind: ColumnKind;
  /** Excel width in characters. */
  width: number;
  value: (t: Transaction) => string | null;
}

/** Excel number formats per kind (text cells have none). */
export const NUMBER_FORMATS: Record<ColumnKind, string | undefined> = {
  date: "yyyy-mm-dd hh:mm:ss",
  text: undefined,
  volume: "0.000",
  price: "0.000",
  money: "0.00",
};

/** `UTC-06:00`: a text that no spreadsheet takes for a number or a formula (a bare `-06:00` would be both). */
function formatOffset(minutes: number | null): string | null {
  if (minutes === null) return null;
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `UTC${minutes < 0 ? "-" : "+"}${hh}:${mm}`;
}

export const COLUMNS: readonly ExportColumn[] = [
  { header: "Date (UTC)", kind: "date", width: 20, value: (t) => t.at },
  { header: "Local offset", kind: "text", width: 12, value: (t) => formatOffset(t.localOffsetMinutes) },
  { header: "Reference", kind: "text", width: 18, value: (t) => t.reference },
  { header: "Status", kind: "text", width: 11, value: (t) => t.status },
  { header: "Product", kind: "text", width: 12, value: (t) => t.product },
  { header: "Gallons", kind: "volume", width: 10, value: (t) => t.gallons },
  { header: "Price per gallon", kind: "price", width: 15, value: (t) => t.pricePerGallon },
  { header: "Amount", kind: "money", width: 11, value: (t) => t.amount },
  { header: "Station", kind: "text", width: 30, value: (t) => t.station.name },
  { header: "Station number", kind: "text", width: 14, value: (t) => t.station.locNum },
  { header: "City", kind: "text", width: 18, value: (t) => t.station.city },
  { header: "State", kind: "text", width: 6, value: (t) => t.station.state },
  { header: "Driver", kind: "text", width: 22, value: (t) => t.driver.name },
  { header: "Truck", kind: "text", width: 10, value: (t) => t.driver.truckId },
  { header: "Card", kind: "text", width: 10, value: (t) => formatCardNumber(t.card.last4) },
  { header: "DEF gallons", kind: "volume", width: 11, value: (t) => t.def?.gallons ?? null },
  { header: "DEF amount", kind: "money", width: 11, value: (t) => t.def?.amount ?? null },
  { header: "DEF category", kind: "text", width: 13, value: (t) => t.def?.category ?? null },
  { header: "Id", kind: "text", width: 24, value: (t) => t.id },
];

export const EXPORT_HEADERS: readonly string[] = COLUMNS.map((c) => c.header);
