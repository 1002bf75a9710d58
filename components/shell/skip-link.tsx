export const MAIN_CONTENT_ID = "main-content";

/** The first stop for keyboard users: jumps past the header and navigation. */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      className="sr-only rounded-md bg-white font-semibold text-brand-800 shadow focus:not-sr-only focus:absolute focus:px-4 focus:py-2 focus:top-2 focus:left-2 focus:z-50 dark:bg-slate-900 dark:text-brand-300"
    >
      Skip to main content
    </a>
  );
}
