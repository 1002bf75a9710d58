/** Where to go after signing in when `next` is missing or unsafe. */
const DEFAULT_NEXT_PATH = "/";
/** Longer than any real page address of the dashboard; a longer one is someone's experiment. */
const MAX_NEXT_LENGTH = 2048;
/** Any base will do: only whether the path stays on it matters. */
const PROBE_ORIGIN = "https://dashboard.invalid";

/**
 * The `next` parameter of /login as a same-site path, or "/". An open redirect is a bug, so anything that a browser
 * could read as another host is refused: `//evil.example`, `/\evil.example` (browsers treat `\` as `/`), and control
 * characters or whitespace (URL parsers drop tabs and newlines, so `/\t/evil.example` becomes `//evil.example`).
 */
export function safeNextPath(raw: string | string[] | null | undefined): string {
  if (typeof raw !== "string" || raw === "" || raw.length > MAX_NEXT_LENGTH) return DEFAULT_NEXT_PATH;
  if (!raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return DEFAULT_NEXT_PATH;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is being refused
  if (/[\u0000-\u0020\u007f\\]/.test(raw)) return DEFAULT_NEXT_PATH;
  try {
    if (new URL(raw, PROBE_ORIGIN).origin !== PROBE_ORIGIN) return DEFAULT_NEXT_PATH;
  } catch {
    return DEFAULT_NEXT_PATH;
  }
  // No loop back to the login page.
  if (raw === "/login" || raw.startsWith("/login?") || raw.startsWith("/login#")) return DEFAULT_NEXT_PATH;
  return raw;
}
