"use client";

import type { Table } from "@tanstack/react-table";
import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";

import { Button } from "@/components/ui/button";
import type { Transaction } from "@/lib/model";

/** Space kept between the open panel and the viewport's edges. */
const EDGE_GAP_PX = 8;

/**
 * Where the panel goes, relative to its button's box: under the button, right edges aligned (the button sits at the
 * toolbar's right), moved right as far as needed to stay inside the viewport, then left so its right edge does too.
 * A fixed side would put it off screen somewhere: the toolbar wraps differently at every width.
 */
function panelLeftOffset(button: { left: number; right: number }, panelWidth: number, viewportWidth: number): number {
  let left = button.right - panelWidth;
  left = Math.max(left, EDGE_GAP_PX);
  left = Math.min(left, viewportWidth - EDGE_GAP_PX - panelWidth);
  // A viewport narrower than the panel: its left edge stays visible (it scrolls on the right).
  left = Math.max(left, 0);
  return left - button.left;
}

/** "Columns": a disclosure with one checkbox per column; Escape or a click outside closes it. */
export function ColumnToggle({ table }: { table: Table<Transaction> }) {
  const [isOpen, setIsOpen] = useState(false);
  const [offset, setOffset] = useState<number | null>(null);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLFieldSetElement>(null);

  // Placed before paint, and again when the window is resized while open.
  useLayoutEffect(() => {
    if (!isOpen) return;
    const place = () => {
      const root = rootRef.current;
      const panel = panelRef.current;
      if (root === null || panel === null) return;
      setOffset(panelLeftOffset(root.getBoundingClientRect(), panel.offsetWidth, document.documentElement.clientWidth));
    };
    place();
    window.addEventListener("resize", place);
    return () => {
      window.removeEventListener("resize", place);
    };
  }, [isOpen]);

  useEffect(() => {
    if (!isOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && rootRef.current?.contains(event.target) !== true) setIsOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setIsOpen(false);
      rootRef.current?.querySelector("button")?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [isOpen]);

  return (
    <div ref={rootRef} className="relative">
      <Button
        variant="secondary"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => {
          setIsOpen((open) => !open);
        }}
      >
        Columns
      </Button>
      <fieldset
        ref={panelRef}
        id={panelId}
        hidden={!isOpen}
        style={{ left: `${String(offset ?? 0)}px` }}
        className="absolute z-10 mt-2 w-52 rounded-md border border-slate-200 bg-white p-3 shadow-lg dark:border-slate-700 dark:bg-slate-900"
      >
        <legend className="sr-only">Columns to show</legend>
        {table.getAllLeafColumns().map((column) => (
          <label key={column.id} className="flex items-center gap-2 py-1 text-sm text-slate-800 dark:text-slate-200">
            <input
              type="checkbox"
              className="size-4"
              checked={column.getIsVisible()}
              // At least one column stays, or the table would have nothing to click.
              disabled={column.getIsVisible() && table.getVisibleLeafColumns().length === 1}
              onChange={column.getToggleVisibilityHandler()}
            />
            {typeof column.columnDef.header === "string" ? column.columnDef.header : column.id}
          </label>
        ))}
      </fieldset>
    </div>
  );
}
