import {
  type ColumnDef,
  createColumnHelper,
  getCoreRowModel,
  getSortedRowModel,
  type SortingState,
  useReactTable,
} from "@tanstack/react-table";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { DataTable, type DataTableProps } from "./data-table";
import { CARD_HEIGHT_PX, cardLayout, SKELETON_ROWS } from "./data-table-logic";

// Rows as cards on a phone (issue 26), from the columns' `card` meta. Rendered to HTML on the server (no DOM test
// environment in this project), which is the page's first paint: the table and the cards are both there, CSS showing
// one (`hidden sm:table`, `sm:hidden`); after hydration DataTable keeps only the one on screen (e2e at 390 px).

interface Fill {
  id: string;
  when: string;
  station: string;
  amount: string;
  card: string;
  note: string;
}

const column = createColumnHelper<Fill>();
const CARD_COLUMNS = [
  column.accessor("card", { header: "Card", meta: { card: false } }),
  column.accessor("note", { header: "Note" }),
  column.accessor("amount", { header: "Amount", meta: { numeric: true, card: "primary" } }),
  column.accessor("when", { header: "When", meta: { rowHeader: true, card: "title" } }),
  column.accessor("station", { header: () => <span>Where</span>, meta: { card: "primary", label: "Where" } }),
];
const PLAIN_COLUMNS = [column.accessor("when", { header: "When" }), column.accessor("amount", { header: "Amount" })];
const FILLS: Fill[] = [
  { id: "f1", when: "Mar 3", station: "Pilot 12", amount: "$80.00", card: "1234", note: "night" },
  { id: "f2", when: "Mar 4", station: "Love's 7", amount: "$95.50", card: "9876", note: "" },
];

type Options = Omit<DataTableProps<Fill>, "table" | "caption"> & {
  columns?: ColumnDef<Fill, string>[];
  sorting?: SortingState;
};

function Harness({ columns = CARD_COLUMNS, sorting, ...props }: Options) {
  // eslint-disable-next-line react-hooks/incompatible-library -- as in the app: no React Compiler here
  const table = useReactTable({
    data: FILLS,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.id,
    ...(sorting === undefined ? {} : { getSortedRowModel: getSortedRowModel(), state: { sorting } }),
  });
  return <DataTable table={table} caption="Fills" testId="fills" {...props} />;
}

const render = (options: Options = {}) => renderToStaticMarkup(<Harness {...options} />);

/** The cards' part of the markup. */
function cardsOf(html: string): string {
  const start = html.indexOf('data-layout="cards"');
  expect(start).toBeGreaterThan(-1);
  return html.slice(start);
}

describe("DataTable's cards", () => {
  it("are drawn beside the table, each shown by CSS on its side of sm, when a column says where it goes", () => {
    const html = render();
    expect(html).toMatch(/<table class="[^"]*hidden sm:table[^"]*" data-testid="fills">/);
    expect(html).toMatch(
      /<div role="group" aria-labelledby="[^"]+" data-testid="fills" data-layout="cards" class="sm:hidden/,
    );
    expect(cardsOf(html).match(/<li/g)).toHaveLength(2);
  });

  it("are not drawn for a table whose columns say nothing about cards (it stays a table at every width)", () => {
    const html = render({ columns: PLAIN_COLUMNS });
    expect(html).not.toContain('data-layout="cards"');
    expect(html).not.toContain("hidden sm:table");
  });

  it("show the title, then the primary pairs, then the rest, labelled with their headings; false columns not", () => {
    const cards = cardsOf(render());
    const first = cards.slice(0, cards.indexOf("</li>"));
    const labels = [...first.matchAll(/<dt[^>]*>([^<]*)<\/dt>/g)].map((m) => m[1]);
    expect(labels).toEqual(["When", "Amount", "Where", "Note"]);
    expect(first).toMatch(/<dt class="sr-only">When<\/dt><dd id="([^"]+)"[^>]*>Mar 3<\/dd>/);
    expect(first).toMatch(/<dd data-column="amount" class="[^"]*tabular-nums[^"]*">\$80.00<\/dd>/);
    expect(first).toContain('<dd data-column="station" class="break-words">Pilot 12</dd>');
    expect(first).not.toContain("1234");
  });

  it("are named by their title and carry the row's attributes (test id, tab stop, handlers' classes)", () => {
    const cards = cardsOf(
      render({
        rowAttributes: (row) => ({
          "data-testid": "fill-row",
          "data-id": row.id,
          tabIndex: 0,
          className: "cursor-pointer",
        }),
      }),
    );
    const li = /<li aria-labelledby="([^"]+)" data-testid="fill-row" data-id="f1" tabindex="0" class="([^"]*)">/.exec(
      cards,
    );
    expect(li).not.toBeNull();
    expect(li?.[2]).toContain("cursor-pointer");
    expect(cards).toContain(`<dd id="${li?.[1] ?? "?"}"`);
  });

  it("offer the table's orders as a menu when it sorts, the current one chosen", () => {
    const cards = cardsOf(render({ sorting: [{ id: "amount", desc: true }] }));
    expect(cards).toMatch(/<label for="([^"]+)"[^>]*>Sort by<\/label><select id="\1"/);
    expect(cards).toContain('<option value="amount:desc" selected="">Amount, descending</option>');
    expect(cards).toContain('<option value="station:asc">Where, ascending</option>');
    expect(cards.indexOf(">Love&#x27;s 7<")).toBeLessThan(cards.indexOf(">Pilot 12<"));
    expect(cardsOf(render())).not.toContain("<select");
  });

  it("draw skeleton cards and reserve the height of the rest while loading", () => {
    const cards = cardsOf(render({ loading: { label: "Loading fills…", rows: 20 } }));
    expect(cards.match(/data-skeleton=""/g)).toHaveLength(SKELETON_ROWS);
    expect(cards).toContain(`height:${String((20 - SKELETON_ROWS) * CARD_HEIGHT_PX)}px`);
    expect(cards).not.toContain("Pilot 12");
  });

  it("keep the row groups, each under its heading", () => {
    const cards = cardsOf(
      render({
        rowGroups: {
          groupOf: (row) => (row.original.note === "" ? "quiet" : "noted"),
          heading: (group) => (group === "noted" ? null : "Without a note"),
        },
      }),
    );
    expect(cards).toMatch(/<div data-group="noted"><ul[^>]*><li/);
    expect(cards).toMatch(/<div data-group="quiet"><p[^>]*>Without a note<\/p><ul/);
  });
});

describe("cardLayout", () => {
  it("puts the first title first, then primary and secondary in their order, unsaid as secondary, false left out", () => {
    const places = {
      a: "secondary",
      b: "primary",
      c: "title",
      d: undefined,
      e: false,
      f: "primary",
      g: "title",
    } as const;
    const layout = cardLayout(Object.keys(places) as (keyof typeof places)[], (key) => places[key]);
    expect(layout).toEqual({ title: "c", primary: ["b", "f"], secondary: ["a", "d", "g"] });
  });
});
