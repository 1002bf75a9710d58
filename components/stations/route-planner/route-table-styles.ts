/** The Route mode's tables share one look (route-tables.tsx, route-plan-table.tsx). */
export const TABLE = "w-full border-collapse text-left text-sm";
export const CAPTION = "mb-2 text-left text-sm font-medium text-slate-900 dark:text-slate-100";
export const TH =
  "border-b border-slate-300 px-2 py-1.5 text-xs font-semibold text-slate-700 dark:border-slate-600 dark:text-slate-300";
export const TD = "border-b border-slate-200 px-2 py-1.5 align-top dark:border-slate-800";
export const NUM = "text-right tabular-nums";
