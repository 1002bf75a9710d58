/** What a person sent (a typed value, a link's parameter), quoted back, trimmed so a long value cannot fill the message. */
export function quoted(value: unknown): string {
  const text = typeof value === "string" ? value : String(value);
  return `“${text.length > 40 ? `${text.slice(0, 40)}…` : text}”`;
}
