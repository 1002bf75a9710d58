"use client";

import type { Table } from "@tanstack/react-table";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { Transaction } from "@/lib/model";

/** "Columns": a disclosure with one checkbox per column; Escape or a click outside closes it. */
export function ColumnToggle({ table }: { table: Table<Transaction> }) {
  const [isOpen, setIsOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);

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
        id={panelId}
        hidden={!isOpen}
        className="absolute right-0 z-10 mt-2 w-52 rounded-md border border-slate-200 bg-white p-3 shadow-lg dark:border-slate-700 dark:bg-slate-900"
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
