"use client";

import { useId } from "react";
import { Button } from "@/components/ui/button";
import { formatCount } from "@/components/format/numbers";
import { PAGE_SIZES, type PageSize } from "./list-state";

export interface PaginationProps {
  page: number;
  pageSize: PageSize;
  /** Null until the first answer. */
  total: number | null;
  pageCount: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: PageSize) => void;
}

/** "1–50 of 3,000", the page size, and first/previous/next/last. */
export function Pagination({ page, pageSize, total, pageCount, onPageChange, onPageSizeChange }: PaginationProps) {
  const sizeId = useId();
  const first = total === null || total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = total === null ? 0 : Math.min(page * pageSize, total);
  const canGoBack = page > 1;
  const canGoForward = page < pageCount;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700 dark:text-slate-300">
      <p aria-live="polite" data-testid="range-summary">
        {total === null ? "Loading…" : total === 0 ? "No transactions" : `${formatCount(first)}–${formatCount(last)} of ${formatCount(total)}`}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={sizeId} className="flex items-center gap-2">
          Rows per page
          <select
            id={sizeId}
            className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
            value={pageSize}
            onChange={(event) => {
              onPageSizeChange(Number(event.target.value) as PageSize);
            }}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
        <span>
          Page {formatCount(page)} of {formatCount(Math.max(pageCount, 1))}
        </span>
        <nav aria-label="Pagination" className="flex gap-1">
          <PageButton label="First page" symbol="«" disabled={!canGoBack} onClick={() => { onPageChange(1); }} />
          <PageButton label="Previous page" symbol="‹" disabled={!canGoBack} onClick={() => { onPageChange(page - 1); }} />
          <PageButton label="Next page" symbol="›" disabled={!canGoForward} onClick={() => { onPageChange(page + 1); }} />
          <PageButton label="Last page" symbol="»" disabled={!canGoForward} onClick={() => { onPageChange(pageCount); }} />
        </nav>
      </div>
    </div>
  );
}

function PageButton({ label, symbol, disabled, onClick }: { label: string; symbol: string; disabled: boolean; onClick: () => void }) {
  return (
    <Button variant="secondary" className="px-3 py-1.5" aria-label={label} title={label} disabled={disabled} onClick={onClick}>
      <span aria-hidden="true">{symbol}</span>
    </Button>
  );
}
