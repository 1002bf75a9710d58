/** Date-times in the user's own time zone (the browser's), with the UTC offset spelled out for a `title`. */
const dateTimeFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
const offsetFormat = new Intl.DateTimeFormat("en-US", { timeZoneName: "longOffset" });

/** "May 15, 2026, 4:30 PM" */
export function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}

/** "Your time, GMT-05:00 (2026-05-15 21:30 UTC)": the offset in force at that instant, daylight saving included. */
export function describeOffset(iso: string): string {
  const date = new Date(iso);
  const zone = offsetFormat.formatToParts(date).find((part) => part.type === "timeZoneName")?.value ?? "local time";
  return `Your time, ${zone.replace("GMT", "UTC")} (${iso.slice(0, 16).replace("T", " ")} UTC)`;
}
