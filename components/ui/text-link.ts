/** The look of a link in running text and tables: underlined (not by colour alone), brand colour, both themes. */
export const TEXT_LINK_CLASSES =
  "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800 dark:text-brand-300 dark:hover:text-brand-200";

/** A link inside a table cell: the same cue (underline), the weight of the text around it. */
export const CELL_LINK_CLASSES =
  "text-brand-700 underline decoration-brand-700/50 underline-offset-2 hover:decoration-brand-700 dark:text-brand-300 dark:decoration-brand-300/50 dark:hover:decoration-brand-300";
