import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { fromMinorUnits, Transaction, type TransactionFilter } from "@/lib/model";
import {
  canGateXlsxSheets,
  contentDisposition,
  EXPORT_CONTENT_TYPES,
  EXPORT_HEADERS,
  exportFilename,
  exportTransactions,
  neutralizeCell,
  type ExportFormat,
  type ExportMeta,
} from "./export";

// ---------------------------------------------------------------------------------------------------------------
// Deterministic test data

/** mulberry32: a tiny seeded PRNG, so every run sees the same rows. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Text a spreadsheet or a CSV parser could trip on. */
const TRICKY = [
  '=HYPERLINK("http://evil.example","click")',
  "+1+2",
  "-3+4",
  "@SUM(A1:A2)",
  "\tTabbed",
  "\rCarriage",
  "Smith, John",
  'O"Brien "Big"',
  "Line one\nLine two",
  "Line one\r\nLine two",
  "Crème brûlée 東京 🚚",
  "Plain Station",
  "＝fullwidth",
  "",
] as const;

const pick = <T>(list: readonly T[], index: number): T => {
  const value = list[index % list.length];
  if (value === undefined) throw new Error("empty list");
  return value;
};

const START_MS = Date.UTC(2026, 4, 31, 23, 0, 0);

function makeTransaction(i: number, random: () => number): Transaction {
  const refund = i % 17 === 5;
  const gallonsMilli = BigInt(1000 + Math.floor(random() * 150_000)) * (refund ? -1n : 1n);
  const priceMilli = BigInt(3000 + Math.floor(random() * 2000));
  const amountCents = (gallonsMilli * priceMilli + (gallonsMilli < 0n ? -5000n : 5000n)) / 10_000n;
  const hasDef = i % 3 === 0;
  const defGallonsMilli = BigInt(1000 + Math.floor(random() * 9000));
  const transaction = {
    id: i === 7 ? "@txn_7" : `txn_${i.toString(36).padStart(6, "0")}`,
    reference: i % 10 === 3 ? `=R${String(i)}` : `R${String(100_000 + i)}`,
    at: new Date(START_MS - i * 37 * 60_000).toISOString(),
    localOffsetMinutes: pick([null, -360, -300, 330], i),
    status: pick(["completed", "pending", "failed"] as const, i),
    product: pick(["diesel", "unleaded", "diesel", "-diesel"], i),
    gallons: fromMinorUnits(gallonsMilli, 3),
    pricePerGallon: fromMinorUnits(priceMilli, 3),
    amount: fromMinorUnits(amountCents, 2),
    station: {
      id: `st_${String(i % 50)}`,
      name: pick(TRICKY, i),
      locNum: String(i % 1000).padStart(5, "0"),
      city: pick(TRICKY, i + 3),
      state: pick(["TX", "OK", "KS"], i),
    },
    driver: {
      id: `dr_${String(i % 48)}`,
      name: pick(TRICKY, i * 7 + 1),
      truckId: i % 6 === 0 ? null : i % 11 === 0 ? "-T9" : `T-${String(i % 40)}`,
    },
    card: { last4: String((i * 37) % 10_000).padStart(4, "0") },
    def: hasDef
      ? {
          gallons: fromMinorUnits(defGallonsMilli, 3),
          amount: fromMinorUnits((defGallonsMilli * 3n + 5n) / 10n, 2),
          category: i % 9 === 0 ? "@def" : "DEF",
        }
      : null,
  };
  return Transaction.parse(transaction); // the generator only makes valid model objects
}

function makeTransactions(count: number, seed = 42): Transaction[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => makeTransaction(i, random));
}

interface SourceStats {
  pulls: number;
  returned: boolean;
}

/**
 * The rows as the client's page walk would hand them: an async iterator that counts `next()` calls and records
 * `return()`. `failAfter` makes it throw after that many rows, as an upstream failure mid-walk would.
 */
function rowSource(
  count: number,
  options: { failAfter?: number; item?: (i: number) => Transaction } = {},
): { rows: AsyncIterable<Transaction>; stats: SourceStats } {
  const stats: SourceStats = { pulls: 0, returned: false };
  const random = seededRandom(7);
  const item = options.item ?? ((i: number) => makeTransaction(i, random));
  const rows: AsyncIterable<Transaction> = {
    [Symbol.asyncIterator](): AsyncIterator<Transaction, undefined> {
      let i = 0;
      return {
        async next(): Promise<IteratorResult<Transaction, undefined>> {
          stats.pulls++;
          await Promise.resolve();
          if (stats.returned || i >= count) return { done: true, value: undefined };
          if (options.failAfter !== undefined && i >= options.failAfter)
            throw new Error('The Fleet Fuel API asked us to wait 23 s, "please"\nretry later');
          return { done: false, value: item(i++) };
        },
        return(): Promise<IteratorResult<Transaction, undefined>> {
          stats.returned = true;
          return Promise.resolve({ done: true, value: undefined });
        },
      };
    },
  };
  return { rows, stats };
}

const fromList = (items: readonly Transaction[]): ReturnType<typeof rowSource> =>
  rowSource(items.length, {
    item: (i) => {
      const t = items[i];
      if (t === undefined) throw new Error("out of range");
      return t;
    },
  });

const META: ExportMeta = {
  filters: { from: "2026-05-01", to: "2026-05-31", status: "completed", search: 'Smith "Jr", =x' },
  generatedAt: new Date("2026-11-20T10:11:12.345Z"),
  customer: { name: "Prairie Freight Lines", code: "PFL" },
  expectedRows: 250,
};

async function readAll(stream: ReadableStream<Uint8Array>): Promise<{ bytes: Buffer; error: unknown }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: Buffer.concat(chunks), error: null };
      chunks.push(value);
    }
  } catch (error) {
    return { bytes: Buffer.concat(chunks), error };
  }
}

const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------------
// A strict RFC 4180 parser (csv-parse is not installed): CRLF between records only, "" inside quoted fields only.

function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let i = 0;
  let atFieldStart = true;
  while (i < text.length) {
    const c = text[i];
    if (atFieldStart && c === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted field");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text.charAt(i);
        i++;
      }
      atFieldStart = false;
      if (i < text.length && text[i] !== "," && text[i] !== "\r")
        throw new Error(`text after a closing quote at ${String(i)}`);
      continue;
    }
    if (c === ",") {
      record.push(field);
      field = "";
      atFieldStart = true;
      i++;
    } else if (c === "\r") {
      if (text[i + 1] !== "\n") throw new Error(`bare CR at ${String(i)}`);
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      atFieldStart = true;
      i += 2;
    } else if (c === "\n") {
      throw new Error(`bare LF at ${String(i)}`);
    } else if (c === '"') {
      throw new Error(`quote inside an unquoted field at ${String(i)}`);
    } else {
      field += text.charAt(i);
      atFieldStart = false;
      i++;
    }
  }
  if (!atFieldStart || field !== "" || record.length > 0) throw new Error("the last record does not end with CRLF");
  return records;
}

// ---------------------------------------------------------------------------------------------------------------
// What each row must look like, written independently of the implementation

const INJECTION_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
const neutral = (text: string): string => (INJECTION_START.test(text) ? `'${text}` : text);

function offsetText(minutes: number | null): string {
  if (minutes === null) return "";
  const abs = Math.abs(minutes);
  return `UTC${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

function expectedCsvRecord(t: Transaction): string[] {
  return [
    t.at,
    offsetText(t.localOffsetMinutes),
    neutral(t.reference),
    t.status,
    neutral(t.product),
    t.gallons,
    t.pricePerGallon,
    t.amount,
    neutral(t.station.name),
    t.station.locNum,
    neutral(t.station.city),
    t.station.state,
    neutral(t.driver.name),
    t.driver.truckId === null ? "" : neutral(t.driver.truckId),
    `•••• ${t.card.last4}`,
    t.def?.gallons ?? "",
    t.def?.amount ?? "",
    t.def === null ? "" : neutral(t.def.category),
    neutral(t.id),
  ];
}

const EXPECTED_HEADERS = [
  "Date (UTC)",
  "Local offset",
  "Reference",
  "Status",
  "Product",
  "Gallons",
  "Price per gallon",
  "Amount",
  "Station",
  "Station number",
  "City",
  "State",
  "Driver",
  "Truck",
  "Card",
  "DEF gallons",
  "DEF amount",
  "DEF category",
  "Id",
];

// ---------------------------------------------------------------------------------------------------------------

describe("neutralizeCell", () => {
  it.each([
    ["=1+2", "'=1+2"],
    ["+1", "'+1"],
    ["-12.50", "'-12.50"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tx", "'\tx"],
    ["\rx", "'\rx"],
    ["＝1+2", "'＝1+2"],
    ["Smith", "Smith"],
    ["", ""],
    ["a=b", "a=b"],
    ["'quoted", "'quoted"],
    // Leading whitespace and invisible characters do not hide a formula: spreadsheets skip them.
    [" =1", "' =1"],
    ['\u00a0=HYPERLINK("http://evil.example","x")', '\'\u00a0=HYPERLINK("http://evil.example","x")'],
    ["\u200b+cmd", "'\u200b+cmd"],
    ["\n-1+1", "'\n-1+1"],
    ["\t\t@SUM(A1)", "'\t\t@SUM(A1)"],
    ["\ufeff\u2028\u3000=1", "'\ufeff\u2028\u3000=1"],
    ["\u202e=1", "'\u202e=1"],
    ["\r\n＝1", "'\r\n＝1"],
    // NUL: some readers drop it, leaving the formula in front.
    ["\0=1", "'\0=1"],
    ["\0abc", "'\0abc"],
    [" \0x", "' \0x"],
    // Only the start counts, and plain text with spaces stays as it is.
    ["\u00a0Smith", "\u00a0Smith"],
    ["  leading spaces", "  leading spaces"],
    ["a;b", "a;b"],
  ])("%j → %j", (input, output) => {
    expect(neutralizeCell(input)).toBe(output);
  });
});

describe("CSV export", () => {
  it("is RFC 4180 with a BOM and CRLF, the header as its first line, and every row as given", async () => {
    const items = makeTransactions(250);
    const { rows } = fromList(items);
    const progress: number[] = [];
    const { bytes, error } = await readAll(exportTransactions("csv", rows, META, { onRow: (n) => progress.push(n) }));
    expect(error).toBeNull();
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString("utf8");
    const records = parseCsv(text); // throws on a bare LF or CR, so every line break between records is CRLF
    // Import tools take line 1 as the column names: nothing may come before it (the self-description is the file name).
    expect(records[0]).toEqual(EXPECTED_HEADERS);
    expect(EXPORT_HEADERS).toEqual(EXPECTED_HEADERS);
    const data = records.slice(1);
    expect(data).toHaveLength(items.length);
    expect(data).toEqual(items.map(expectedCsvRecord));
    expect(data.map((r) => r[18])).toEqual(items.map((t) => neutral(t.id)));
    expect(progress).toEqual(items.map((_, i) => i + 1));
  });

  it("neutralises formula cells but leaves our decimals, negative ones included, as plain numbers", async () => {
    const items = makeTransactions(60);
    const { bytes } = await readAll(exportTransactions("csv", fromList(items).rows, META));
    const data = parseCsv(bytes.subarray(3).toString("utf8")).slice(1);
    const byId = new Map(data.map((r) => [r[18], r]));
    const station = (name: string): string[] | undefined => data.find((r) => r[8] === name);
    expect(station(`'=HYPERLINK("http://evil.example","click")`)).toBeDefined();
    expect(station("'+1+2")).toBeDefined();
    expect(station("'-3+4")).toBeDefined();
    expect(station("'@SUM(A1:A2)")).toBeDefined();
    expect(station("'\tTabbed")).toBeDefined();
    expect(station("'\rCarriage")).toBeDefined();
    expect(station("'＝fullwidth")).toBeDefined();
    // Quotes, commas and line breaks round-trip through quoting.
    expect(station('O"Brien "Big"')).toBeDefined();
    expect(station("Smith, John")).toBeDefined();
    expect(station("Line one\nLine two")).toBeDefined();
    expect(station("Line one\r\nLine two")).toBeDefined();
    expect(station("Crème brûlée 東京 🚚")).toBeDefined();
    // No text cell anywhere starts with a formula trigger.
    const textColumns = EXPECTED_HEADERS.map((_, i) => i).filter((i) => ![5, 6, 7, 15, 16].includes(i));
    for (const record of data) for (const i of textColumns) expect(record[i] ?? "").not.toMatch(INJECTION_START);
    // Negative amounts (refunds) stay numbers; the id and the truck starting with - or @ do not.
    const refund = items.find((t) => t.amount.startsWith("-"));
    expect(refund).toBeDefined();
    if (refund === undefined) return;
    expect(byId.get(neutral(refund.id))?.[7]).toBe(refund.amount);
    expect(byId.get(neutral(refund.id))?.[5]).toBe(refund.gallons);
    expect(byId.get("'@txn_7")).toBeDefined();
    expect(data.some((r) => r[13] === "'-T9")).toBe(true);
    expect(data.some((r) => r[14] === "•••• 0000")).toBe(true); // leading zeros kept as text
  });

  it("neutralises formulas hidden behind whitespace, invisible characters or NUL, and quotes every cell with ;", async () => {
    const payloads = ['\u00a0=HYPERLINK("http://evil.example","x")', "\u200b+cmd", "\n-1+1", "\0=1", "a;b", "=1;2"];
    const items = makeTransactions(payloads.length).map((t, i) => ({
      ...t,
      station: { ...t.station, name: payloads[i] ?? "" },
    }));
    const { bytes } = await readAll(exportTransactions("csv", fromList(items).rows, META));
    const text = bytes.subarray(3).toString("utf8");
    const data = parseCsv(text).slice(1);
    expect(data.map((r) => r[8])).toEqual(payloads.map((p) => `'${p}`).map((p, i) => (i === 4 ? "a;b" : p)));
    // A `;` locale splits an unquoted cell there: both cells holding one are quoted in the file itself.
    expect(text).toContain(',"a;b",');
    expect(text).toContain(`,"'=1;2",`);
  });

  it("delivers each id once, in the order first seen", async () => {
    const items = makeTransactions(30);
    const withDuplicates = [...items.slice(0, 20), ...items.slice(10, 15), ...items.slice(20)];
    const progress: number[] = [];
    const { bytes } = await readAll(
      exportTransactions("csv", fromList(withDuplicates).rows, META, { onRow: (n) => progress.push(n) }),
    );
    const data = parseCsv(bytes.subarray(3).toString("utf8")).slice(1);
    expect(data.map((r) => r[18])).toEqual(items.map((t) => neutral(t.id)));
    expect(progress.at(-1)).toBe(30);
  });

  it("writes the header alone when there are no rows", async () => {
    const meta: ExportMeta = {
      filters: {},
      generatedAt: META.generatedAt,
      customer: { name: "=Evil Co", code: null },
      expectedRows: 0,
    };
    const { bytes, error } = await readAll(exportTransactions("csv", fromList([]).rows, meta));
    expect(error).toBeNull();
    expect(parseCsv(bytes.subarray(3).toString("utf8"))).toEqual([EXPECTED_HEADERS]);
  });

  it("ends with '# export incomplete: …' and then errors when the rows fail mid-walk", async () => {
    const { rows } = rowSource(1000, { failAfter: 10 });
    const { bytes, error } = await readAll(exportTransactions("csv", rows, META));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("asked us to wait 23 s");
    const text = bytes.subarray(3).toString("utf8");
    const records = parseCsv(text);
    expect(records).toHaveLength(1 + 10 + 1);
    expect(
      text.endsWith("# export incomplete: The Fleet Fuel API asked us to wait 23 s - 'please' retry later\r\n"),
    ).toBe(true);
    expect(text).not.toMatch(/\n\s+at /); // no stack
  });
});

describe("XLSX export", () => {
  async function loadXlsx(bytes: Buffer): Promise<ExcelJS.Workbook> {
    const workbook = new ExcelJS.Workbook();
    // exceljs types `load` with its own `Buffer` (an ArrayBuffer); a copy gives exactly that.
    await workbook.xlsx.load(new Uint8Array(bytes).buffer);
    return workbook;
  }

  const xlsxText = (text: string): string => neutral(text).replace(/\r\n?/g, "\n");

  it("has a Transactions sheet with typed cells and an About sheet with the exact count", async () => {
    const items = makeTransactions(250);
    const withDuplicates = [...items, ...items.slice(0, 5)];
    const progress: number[] = [];
    const { bytes, error } = await readAll(
      exportTransactions("xlsx", fromList(withDuplicates).rows, META, { onRow: (n) => progress.push(n) }),
    );
    expect(error).toBeNull();
    expect(progress.at(-1)).toBe(250);
    const workbook = await loadXlsx(bytes);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(["Transactions", "About"]);

    const sheet = workbook.getWorksheet("Transactions");
    if (sheet === undefined) throw new Error("no Transactions sheet");
    expect(sheet.actualRowCount).toBe(1 + items.length);
    const header = sheet.getRow(1);
    expect(EXPECTED_HEADERS.map((_, i) => header.getCell(i + 1).value)).toEqual(EXPECTED_HEADERS);
    expect(header.getCell(1).font.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.getColumn(9).width).toBeGreaterThan(10);

    items.forEach((t, index) => {
      const row = sheet.getRow(index + 2);
      const cell = (column: number): ExcelJS.CellValue => row.getCell(column).value;
      expect(cell(1)).toEqual(new Date(t.at));
      expect(row.getCell(1).numFmt).toBe("yyyy-mm-dd hh:mm:ss");
      expect(cell(2)).toBe(t.localOffsetMinutes === null ? null : offsetText(t.localOffsetMinutes));
      expect(cell(3)).toBe(xlsxText(t.reference));
      expect(cell(6)).toBe(Number(t.gallons));
      expect(row.getCell(6).numFmt).toBe("0.000");
      expect(cell(7)).toBe(Number(t.pricePerGallon));
      expect(cell(8)).toBe(Number(t.amount));
      expect(row.getCell(8).numFmt).toBe("0.00");
      expect(cell(9)).toBe(t.station.name === "" ? null : xlsxText(t.station.name));
      expect(cell(10)).toBe(t.station.locNum);
      expect(cell(13)).toBe(t.driver.name === "" ? null : xlsxText(t.driver.name));
      expect(cell(14)).toBe(t.driver.truckId === null ? null : xlsxText(t.driver.truckId));
      expect(cell(15)).toBe(`•••• ${t.card.last4}`);
      expect(cell(16)).toBe(t.def === null ? null : Number(t.def.gallons));
      expect(cell(17)).toBe(t.def === null ? null : Number(t.def.amount));
      expect(cell(18)).toBe(t.def === null ? null : xlsxText(t.def.category));
      expect(cell(19)).toBe(xlsxText(t.id));
    });
    // Numbers are numbers, negative ones too; every string cell is neutralised.
    expect(items.some((t) => Number(t.amount) < 0)).toBe(true);
    sheet.eachRow((row, rowNumber) => {
      if (rowNumber === 1) return;
      for (const column of [6, 7, 8]) expect(typeof row.getCell(column).value).toBe("number");
      row.eachCell((cell) => {
        if (typeof cell.value === "string") expect(cell.value).not.toMatch(INJECTION_START);
      });
    });

    const about = workbook.getWorksheet("About");
    if (about === undefined) throw new Error("no About sheet");
    const facts = new Map<string, ExcelJS.CellValue>();
    about.eachRow((row) => facts.set(row.getCell(1).text, row.getCell(2).value));
    expect(facts.get("Customer")).toBe("Prairie Freight Lines");
    expect(facts.get("Customer code")).toBe("PFL");
    expect(facts.get("From (UTC day)")).toBe("2026-05-01");
    expect(facts.get("To (UTC day)")).toBe("2026-05-31");
    expect(facts.get("Status")).toBe("completed");
    expect(facts.get("Search")).toBe('Smith "Jr", =x');
    expect(facts.get("Generated (UTC)")).toBe("2026-11-20T10:11:12.345Z");
    expect(facts.get("Rows expected at the start")).toBe(250);
    expect(facts.get("Rows exported")).toBe(250);
  });

  it("neutralises a search that starts with a formula trigger in the About sheet", async () => {
    const meta: ExportMeta = { ...META, filters: { search: "=cmd|' /C calc'!A0" } };
    const workbook = await loadXlsx(
      (await readAll(exportTransactions("xlsx", fromList(makeTransactions(3)).rows, meta))).bytes,
    );
    const about = workbook.getWorksheet("About");
    const values: ExcelJS.CellValue[] = [];
    about?.eachRow((row) => values.push(row.getCell(2).value));
    expect(values).toContain("'=cmd|' /C calc'!A0");
    expect(values).toContain("any");
  });

  it("errors the stream when the rows fail mid-walk", async () => {
    const { rows } = rowSource(1000, { failAfter: 10 });
    const { error } = await readAll(exportTransactions("xlsx", rows, META));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("asked us to wait 23 s");
  });

  it("finds exceljs's internals it needs for back-pressure on the sheet XML", () => {
    expect(canGateXlsxSheets()).toBe(true);
  });
});

describe.each(["csv", "xlsx"] as const)("%s stream control", (format: ExportFormat) => {
  const TOTAL = 100_000;

  it("pulls nothing before the first read and stays a bounded distance ahead of a slow reader", async () => {
    const { rows, stats } = rowSource(TOTAL);
    const stream = exportTransactions(format, rows, META);
    await tick(20);
    expect(stats.pulls).toBe(0);
    const reader = stream.getReader();
    await reader.read();
    await tick(200); // the producer runs until back-pressure stops it
    const ahead = stats.pulls;
    expect(ahead).toBeGreaterThan(0);
    expect(ahead).toBeLessThan(20_000);
    await reader.cancel();
  });

  it("stops the upstream walk when the reader cancels", async () => {
    const { rows, stats } = rowSource(TOTAL);
    const reader = exportTransactions(format, rows, META).getReader();
    for (let i = 0; i < 3; i++) await reader.read();
    await reader.cancel("client went away");
    expect(stats.returned).toBe(true);
    const pullsAtCancel = stats.pulls;
    await tick(100);
    expect(stats.pulls).toBe(pullsAtCancel);
    expect(pullsAtCancel).toBeLessThan(TOTAL);
  });

  it("stops the upstream walk and errors the stream when the signal aborts", async () => {
    const { rows, stats } = rowSource(TOTAL);
    const controller = new AbortController();
    const reader = exportTransactions(format, rows, META, { signal: controller.signal }).getReader();
    for (let i = 0; i < 3; i++) await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
    expect(stats.returned).toBe(true);
    const pullsAtAbort = stats.pulls;
    await tick(100);
    expect(stats.pulls).toBe(pullsAtAbort);
  });

  it("pulls no row at all when the signal is already aborted", async () => {
    const { rows, stats } = rowSource(TOTAL);
    const { error } = await readAll(exportTransactions(format, rows, META, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ name: "AbortError" });
    expect(stats.pulls).toBe(0);
  });
});

describe("exportFilename", () => {
  const base = { generatedAt: META.generatedAt, customer: META.customer, expectedRows: META.expectedRows };
  const name = (format: ExportFormat, filters: TransactionFilter, customer = base.customer): string =>
    exportFilename(format, { ...base, customer, filters });

  it("names the customer, the filters, the time and the row count (the CSV's self-description)", () => {
    expect(name("csv", { from: "2026-05-01", to: "2026-05-31", status: "completed", search: "Smith" })).toBe(
      "fleet-fuel-transactions_PFL_2026-05-01_to_2026-05-31_completed_search-smith_2026-11-20T101112Z_250-rows.csv",
    );
    expect(name("xlsx", {})).toBe("fleet-fuel-transactions_PFL_all-dates_2026-11-20T101112Z_250-rows.xlsx");
    expect(name("csv", { from: "2026-05-01" })).toBe(
      "fleet-fuel-transactions_PFL_from_2026-05-01_2026-11-20T101112Z_250-rows.csv",
    );
    expect(name("csv", { to: "2026-05-31", status: "failed" })).toBe(
      "fleet-fuel-transactions_PFL_to_2026-05-31_failed_2026-11-20T101112Z_250-rows.csv",
    );
    // The time is UTC, whatever the server's time zone; one row is "1-row".
    expect(
      exportFilename("csv", {
        ...base,
        generatedAt: new Date("2026-11-20T23:59:59-05:00"),
        expectedRows: 1,
        filters: {},
      }),
    ).toBe("fleet-fuel-transactions_PFL_all-dates_2026-11-21T045959Z_1-row.csv");
  });

  it("slugifies the search: accents dropped, the rest dashed, at most 40 characters", () => {
    expect(name("csv", { search: "Crème Brûlée / 東京 ../../etc" })).toBe(
      "fleet-fuel-transactions_PFL_all-dates_search-creme-brulee-etc_2026-11-20T101112Z_250-rows.csv",
    );
    expect(name("csv", { search: "東京" })).toBe(
      "fleet-fuel-transactions_PFL_all-dates_search_2026-11-20T101112Z_250-rows.csv",
    );
    const long = name("csv", { search: "a".repeat(30) + " " + "b".repeat(60) });
    const slug = /_search-([^_]+)_/.exec(long)?.[1] ?? "";
    expect(slug.length).toBeLessThanOrEqual(40);
    expect(slug).toBe(`${"a".repeat(30)}-${"b".repeat(9)}`);
  });

  it("uses a slug of the name when there is no customer code, and keeps to [A-Za-z0-9._-]", () => {
    expect(name("csv", {}, { name: "Coastal Haulers, Inc.", code: null })).toBe(
      "fleet-fuel-transactions_coastal-haulers-inc_all-dates_2026-11-20T101112Z_250-rows.csv",
    );
    expect(name("csv", {}, { name: "東京", code: null })).toBe(
      "fleet-fuel-transactions_all-dates_2026-11-20T101112Z_250-rows.csv",
    );
    const odd = name("xlsx", { search: '"; rm -rf / \r\n' }, { name: "x", code: 'P/F L"' });
    expect(odd).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(odd).toBe("fleet-fuel-transactions_P-F-L_all-dates_search-rm-rf_2026-11-20T101112Z_250-rows.xlsx");
  });
});

describe("contentDisposition", () => {
  it("gives an ASCII filename and the UTF-8 one", () => {
    expect(contentDisposition("fleet-fuel-transactions_PFL_2026-11-20.csv")).toBe(
      `attachment; filename="fleet-fuel-transactions_PFL_2026-11-20.csv"; filename*=UTF-8''fleet-fuel-transactions_PFL_2026-11-20.csv`,
    );
    const header = contentDisposition("Überweisung (Mai) 東京's.csv");
    expect(header).toBe(
      `attachment; filename="Uberweisung (Mai) __'s.csv"; filename*=UTF-8''%C3%9Cberweisung%20%28Mai%29%20%E6%9D%B1%E4%BA%AC%27s.csv`,
    );
    const star = /filename\*=UTF-8''(.*)$/.exec(header)?.[1] ?? "";
    expect(decodeURIComponent(star)).toBe("Überweisung (Mai) 東京's.csv");
    expect(star).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]+$/); // RFC 5987 attr-char or %XX only
  });

  it("cannot break out of the quotes or the header line", () => {
    const header = contentDisposition('a"b\\c\r\nSet-Cookie: x=1.csv');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.startsWith(`attachment; filename="a_b_cSet-Cookie: x=1.csv"; `)).toBe(true);
    expect(() => new Headers({ "content-disposition": header })).not.toThrow();
    expect(contentDisposition("")).toBe(`attachment; filename="export"; filename*=UTF-8''export`);
  });
});

describe("EXPORT_CONTENT_TYPES", () => {
  it("are the registered types", () => {
    expect(EXPORT_CONTENT_TYPES).toEqual({
      csv: "text/csv; charset=utf-8",
      xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    });
  });
});
