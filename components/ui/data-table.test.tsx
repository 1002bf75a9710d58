import {
  createColumnHelper,
  createTable,
  getCoreRowModel,
  getSortedRowModel,
  type SortingState,
  useReactTable,
} from "@tanstack/react-table";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";

import { DataTable, type DataTableProps, listTableOptions } from "./data-table";
import { groupInOrder, MAX_RESERVED_ROWS, ROW_HEIGHT_PX, SKELETON_ROWS, skeletonPlan } from "./data-table-logic";

// No DOM test environment in this project: the table is rendered to HTML on the server (react-dom/server), which is
// what the page's first paint is too, and the markup is checked.

interface Driver {
  id: string;
  name: string;
  amount: string;
}

const column = createColumnHelper<Driver>();
const columns = [
  column.accessor("name", { header: "Driver", meta: { rowHeader: true } }),
  column.accessor("amount", { header: "Spend", meta: { numeric: true } }),
];
const DRIVERS: Driver[] = [
  { id: "d1", name: "Ann", amount: "12.00" },
  { id: "d2", name: "Bob", amount: "30.00" },
];

type Options = Omit<DataTableProps<Driver>, "table" | "caption"> & { data?: Driver[]; sorting?: SortingState };

function Harness({ data = DRIVERS, sorting, ...props }: Options) {
  // eslint-disable-next-line react-hooks/incompatible-library -- as in the app: no React Compiler here
  const table = useReactTable({
    data,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.id,
    ...(sorting === undefined ? {} : { getSortedRowModel: getSortedRowModel(), state: { sorting } }),
  });
  return <DataTable table={table} caption="Top drivers" {...props} />;
}

function render(options: Options = {}): string {
  return renderToStaticMarkup(<Harness {...options} />);
}

describe("DataTable", () => {
  it("is a captioned table with column headers and row headers", () => {
    const html = render({ testId: "drivers" });
    expect(html).toContain('<caption class="sr-only">Top drivers</caption>');
    expect(html).toContain('data-testid="drivers"');
    expect(html.match(/<th scope="col"/g)).toHaveLength(2);
    expect(html).toMatch(/<th scope="row" data-column="name"[^>]*>Ann<\/th>/);
    expect(html).toMatch(/<td data-column="amount" class="[^"]*text-right[^"]*tabular-nums[^"]*">12.00<\/td>/);
  });

  it("has no sort buttons nor aria-sort when the table does not sort", () => {
    const html = render();
    expect(html).not.toContain("aria-sort");
    expect(html).not.toContain("<button");
  });

  it("makes headers buttons with aria-sort when the table sorts, and sorts the rows", () => {
    const html = render({ sorting: [{ id: "amount", desc: true }] });
    expect(html).toMatch(/<th scope="col" aria-sort="none"[^>]*><button type="button"[^>]*>Driver/);
    expect(html).toMatch(/<th scope="col" aria-sort="descending"[^>]*><button type="button"[^>]*>Spend/);
    expect(html.indexOf(">Bob<")).toBeLessThan(html.indexOf(">Ann<"));
  });

  it("draws skeleton rows and says what loads, instead of rows", () => {
    const html = render({ loading: { label: "Loading drivers…", rows: 5 }, busy: true });
    expect(html).toContain('aria-busy="true"');
    expect(html.match(/data-skeleton=""/g)).toHaveLength(5);
    expect(html).toContain('<p class="sr-only">Loading drivers…</p>');
    expect(html).not.toContain(">Ann<");
  });

  it("shows the empty state only when there are no rows", () => {
    const empty = <p>No drivers yet</p>;
    expect(render({ data: [], empty })).toContain("<p>No drivers yet</p>");
    expect(render({ empty })).not.toContain("No drivers yet");
  });

  it("shows the error state in place of the empty state", () => {
    const html = render({ data: [], empty: <p>No drivers yet</p>, error: <p role="alert">It failed</p> });
    expect(html).toContain('<p role="alert">It failed</p>');
    expect(html).not.toContain("No drivers yet");
  });

  it("does not scroll inside a card unless asked (a scrolling box needs focusable content: axe)", () => {
    expect(render({ variant: "plain" })).toMatch(/^<div aria-busy="false" class="relative" data-variant="plain">/);
    expect(render({ variant: "plain", wrapperClassName: "overflow-x-auto" })).toMatch(
      /^<div aria-busy="false" class="relative overflow-x-auto" data-variant="plain">/,
    );
  });

  it("gives rows the attributes asked for", () => {
    const html = render({ rowAttributes: (row) => ({ "data-testid": "driver-row", "data-id": row.id, tabIndex: 0 }) });
    expect(html.match(/<tr data-testid="driver-row" data-id="d\d" tabindex="0">/g)).toHaveLength(2);
  });
});

describe("DataTable row groups and row refs", () => {
  const data: Driver[] = [...DRIVERS, { id: "d3", name: "Cy", amount: "" }];
  const rowGroups = {
    groupOf: (row: { original: Driver }) => (row.original.amount === "" ? "unpaid" : "paid"),
    heading: (group: string, rows: readonly unknown[]) => (group === "paid" ? null : `Unpaid (${String(rows.length)})`),
    className: (group: string) => (group === "paid" ? undefined : "border-t-2"),
  };

  it("draws one tbody per group in data order, a rowgroup heading over all columns where asked", () => {
    const html = render({ data, rowGroups });
    expect(html.match(/<tbody/g)).toHaveLength(2);
    expect(html).toMatch(/<tbody data-group="paid" class="[^"]*"><tr><th scope="row"[^>]*>Ann</);
    expect(html).toMatch(/<tbody data-group="unpaid" class="[^"]*border-t-2"><tr><th scope="rowgroup" colSpan="2"/);
    expect(html).toContain(">Unpaid (1)</th>");
    expect(html.indexOf(">Bob<")).toBeLessThan(html.indexOf(">Unpaid (1)<"));
    expect(html.indexOf(">Unpaid (1)<")).toBeLessThan(html.indexOf(">Cy<"));
  });

  it("draws skeleton rows, not groups, while loading", () => {
    const html = render({ data, rowGroups, loading: { label: "Loading drivers…", rows: 2 } });
    expect(html.match(/<tbody/g)).toHaveLength(1);
    expect(html).not.toContain("rowgroup");
  });

  it("hands the ref asked for to its row only", () => {
    const ref = vi.fn();
    const rowRef = (row: { id: string }) => (row.id === "d2" ? ref : undefined);
    // The server renderer attaches no refs: a client-rendered table would; here the call per row is what is checked.
    const asked: string[] = [];
    render({
      rowRef: (row) => {
        asked.push(row.id);
        return rowRef(row);
      },
    });
    expect(asked).toEqual(["d1", "d2"]);
  });

  it("keeps the sticky small header of the compact variant", () => {
    expect(render({ variant: "compact" })).toMatch(/<thead class="sticky top-0[^"]*">/);
  });
});

describe("groupInOrder", () => {
  it("groups items in the order their groups first occur, keeping each group's order", () => {
    expect(groupInOrder([1, 2, 3, 4, 5], (n) => (n % 2 === 0 ? "even" : "odd"))).toEqual([
      { group: "odd", rows: [1, 3, 5] },
      { group: "even", rows: [2, 4] },
    ]);
    expect(groupInOrder([], () => "x")).toEqual([]);
  });
});

describe("skeletonPlan", () => {
  it("draws every row of a short page", () => {
    expect(skeletonPlan(5)).toEqual({ rows: 5, reservedPx: 0 });
  });

  it("draws a few rows and reserves the height of the rest", () => {
    expect(skeletonPlan(25)).toEqual({ rows: SKELETON_ROWS, reservedPx: (25 - SKELETON_ROWS) * ROW_HEIGHT_PX });
  });

  it("reserves at most a page of MAX_RESERVED_ROWS", () => {
    expect(skeletonPlan(100)).toEqual({
      rows: SKELETON_ROWS,
      reservedPx: (MAX_RESERVED_ROWS - SKELETON_ROWS) * ROW_HEIGHT_PX,
    });
  });
});

describe("listTableOptions", () => {
  it("sets no state when the data changes (a new array each render would otherwise render forever)", async () => {
    const onStateChange = vi.fn();
    const options = listTableOptions(DRIVERS, columns);
    const table = createTable({ ...options, state: {}, onStateChange, renderFallbackValue: null });
    table.setOptions((prev) => ({ ...prev, state: table.initialState }));
    // TanStack registers its resets, and queues them, on microtasks: let each one run.
    for (let render = 0; render < 3; render += 1) {
      table.setOptions((prev) => ({ ...prev, data: [...DRIVERS] }));
      table.getRowModel();
      await Promise.resolve();
      await Promise.resolve();
    }
    expect(onStateChange).not.toHaveBeenCalled();
  });
});
