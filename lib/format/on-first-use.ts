/**
 * A value built on its first use instead of when its module loads. The formats of this folder use it: a page's first
 * `Intl` object costs ~10–15 ms of main thread (ICU loads its locale and zone data), four times that on Lighthouse's
 * mobile CPU. Built at module load, that cost lands in the long task that evaluates the page's scripts, on every page;
 * built on first use, it lands in a render (time-sliced where a page defers its data) or nowhere on a page that
 * formats nothing.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let value: { built: T } | undefined;
  return () => (value ??= { built: make() }).built;
}
