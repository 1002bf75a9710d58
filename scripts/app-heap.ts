/**
 * The Node flag every launcher of the app (`next start`) passes: an old generation of at most 1 GB.
 *
 * Why: V8 lets the old generation grow to a multiple of what is live before a full collection, and that multiple
 * depends on the heap limit: up to 4 when the limit is 2 GB or more (Node's default is a quarter of the machine's
 * memory, so 4 GB on a 16 GB machine), 1.3 to 2 below it (about 1.6 at 1 GB). During an export the rows' parsing
 * garbage reaches the old generation (V8 pretenures the parser's allocation sites under the walk's load), so with
 * the default the app's RSS grew by ~150 MB for 40–60 MB live; capped at 1 GB it grows by ~50 MB (the 64 MB goal;
 * ARCHITECTURE "Memory during an export"). 1 GB is far above what the app keeps (caches included).
 *
 * An operator's own `--max-old-space-size` in NODE_OPTIONS wins: then nothing is added.
 */
export const APP_MAX_OLD_SPACE_MB = 1024;

export function appNodeArgs(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  return /--max-old-space-size\b/.test(env.NODE_OPTIONS ?? "")
    ? []
    : [`--max-old-space-size=${String(APP_MAX_OLD_SPACE_MB)}`];
}
