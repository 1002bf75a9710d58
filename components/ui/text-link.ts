/** The look of a link in running text and tables: underlined (not by colour alone), brand colour, both themes. */
export const TEXT_LINK_CLASSES =
  "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800 dark:text-brand-300 dark:hover:text-brand-200";

/**
 * A link inside a table cell: the same cue (underline), the weight of the text around it; at least 24 px tall (WCAG 2.2
 * 2.5.8 target size, which Lighthouse checks: a cell's link sat 17 px tall against its focusable row's edge).
 */
export const CELL_LINK_CLASSES =
  "inline-block min-h-6 py-0.5 text-brand-700 underline decoration-brand-700/50 underline-offset-2 hover:decoration-brand-700 dark:text-brand-300 dark:decoration-brand-300/50 dark:hover:decoration-brand-300";
