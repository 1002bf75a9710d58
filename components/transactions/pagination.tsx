"use client";

import { useId } from "react";

import { Button } from "@/components/ui/button";
import { formatCount } from "@/lib/format/numbers";

import { PAGE_SIZES, type PageSize } from "./list-state";

/** The page on screen, as the BFF answered it: what the footer describes. */
interface ShownPage {
  page: number;
  limit: number;
  total: number;
  /** Rows of this page actually on screen. */
  rowCount: number;
}

export interface PaginationProps {
  /** The rows on screen (kept while the next page loads), or null before the first answer or after a failure. */
  shown: ShownPage | null;
  isError: boolean;
  /** The page and size asked for (the URL's): where the buttons go from. */
  page: number;
  pageSize: PageSize;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: PageSize) => void;
}

export function pageCountOf(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}

/**
 * The footer's sentence, always about the rows on screen: while the next page loads the old rows stay (keepPreviousData)
 * and so does their description, instead of the new range over the old rows.
 */
function describeShownRows(shown: ShownPage | null, isError: boolean): string {
  if (shown === null) return isError ? "No transactions to show" : "Loading…";
  if (shown.total === 0) return "No transactions";
  const pages = pageCountOf(shown.total, shown.limit);
  if (shown.rowCount === 0) return `Past the last page (${formatCount(pages)}) of ${formatCount(shown.total)}`;
  const first = (shown.page - 1) * shown.limit + 1;
  const last = first + shown.rowCount - 1;
  return `${formatCount(first)}–${formatCount(last)} of ${formatCount(shown.total)}`;
}

/** "1–50 of 3,000", the page size, and first/previous/next/last. */
export function Pagination({ shown, isError, page, pageSize, onPageChange, onPageSizeChange }: PaginationProps) {
  const sizeId = useId();
  const pageCount = shown === null ? 1 : pageCountOf(shown.total, pageSize);
  const canGoBack = page > 1;
  const canGoForward = page < pageCount;
  const shownPage = shown === null ? null : Math.min(shown.page, pageCountOf(shown.total, shown.limit));
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700 dark:text-slate-300">
      <p aria-live="polite" data-testid="range-summary">
        {describeShownRows(shown, isError)}
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
        {shown === null || shownPage === null ? null : (
          <span data-testid="page-of">
            Page {formatCount(shownPage)} of {formatCount(pageCountOf(shown.total, shown.limit))}
          </span>
        )}
        <nav aria-label="Pagination" className="flex gap-1">
          <PageButton
            label="First page"
            symbol="«"
            disabled={!canGoBack}
            onClick={() => {
              onPageChange(1);
            }}
          />
          <PageButton
            label="Previous page"
            symbol="‹"
            disabled={!canGoBack}
            onClick={() => {
              onPageChange(Math.min(page - 1, pageCount));
            }}
          />
          <PageButton
            label="Next page"
            symbol="›"
            disabled={!canGoForward}
            onClick={() => {
              onPageChange(page + 1);
            }}
          />
          <PageButton
            label="Last page"
            symbol="»"
            disabled={!canGoForward}
            onClick={() => {
              onPageChange(pageCount);
            }}
          />
        </nav>
      </div>
    </div>
  );
}

function PageButton({
  label,
  symbol,
  disabled,
  onClick,
}: {
  label: string;
  symbol: string;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      variant="secondary"
      className="px-3 py-1.5"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
    >
      <span aria-hidden="true">{symbol}</span>
    </Button>
  );
}
