/**
 * npx tsx --conditions=react-server bench/standalone/bench-export-memory.ts [rows]
 *
 * Streams `rows` (default 100,000) generated transactions through the CSV and the XLSX export into a byte counter
 * and prints, per format, the peak RSS growth over the RSS just before it started, rows per second and bytes.
 * The goal (issue 4): peak RSS growth ≤ 64 MB for 100,000 rows. Rows are generated one at a time, as the
 * upstream walk hands them over, so the only rows in memory are the ones the export holds. Prints figures;
 * asserts nothing.
 */
import { type ExportFormat, type ExportMeta, exportTransactions } from "@/lib/bff/files";
import type { Transaction } from "@/lib/model";

const DEFAULT_ROWS = 100_000;
const WARM_UP_ROWS = 2_000;
const SAMPLE_EVERY_MS = 100;
/** Also sample from the progress callback: a CSV export can run long stretches on microtasks alone, without timers. */
const SAMPLE_EVERY_ROWS = 1_000;
const MB = 1024 * 1024;
const GOAL_MB = 64;

const rowsArg = process.argv[2];
const rowCount = rowsArg === undefined ? DEFAULT_ROWS : Number(rowsArg);
if (!Number.isInteger(rowCount) || rowCount <= 0) {
  console.error(`rows must be a positive integer, got ${String(rowsArg)}`);
  process.exit(2);
}

const STATIONS = [
  "Pilot Travel Center #0412",
  "Love's Travel Stop 733",
  "TA Petro Amarillo East",
  "Flying J 0981",
  "Casey's 2231",
  "Kwik Trip 1045",
];
const CITIES = ["Amarillo", "Oklahoma City", "Wichita", "Tulsa", "Dodge City", "Lubbock"];
const DRIVERS = ["Maria Gonzalez", "James O'Neil", "Li Wei", "Ahmed Hassan", "=SUM(1,2) Smith", "Anna-Lena Müller"];

const pad = (n: number, width: number): string => String(n).padStart(width, "0");
const decimal = (minor: number, digits: number): string => {
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  const scale = 10 ** digits;
  return `${sign}${String(Math.floor(abs / scale))}.${pad(abs % scale, digits)}`;
};

/** A plausible transaction, deterministic in `i`, about the size the upstream's are. */
function makeTransaction(i: number): Transaction {
  const gallonsMilli = (20_000 + ((i * 7919) % 130_000)) * (i % 50 === 7 ? -1 : 1);
  const priceMilli = 3_200 + ((i * 104_729) % 1_500);
  const hasDef = i % 4 === 0;
  return {
    id: `txn_${pad(i, 9)}`,
    reference: `FF${pad(900_000_000 + i, 10)}`,
    at: new Date(Date.UTC(2026, 10, 20) - i * 60_000).toISOString(),
    localOffsetMinutes: i % 3 === 0 ? null : -360,
    status: i % 50 === 0 ? "failed" : i < 200 ? "pending" : "completed",
    product: i % 5 === 0 ? "unleaded" : "diesel",
    gallons: decimal(gallonsMilli, 3),
    pricePerGallon: decimal(priceMilli, 3),
    amount: decimal(Math.round((gallonsMilli * priceMilli) / 10_000), 2),
    station: {
      id: `loc_${pad(i % 2500, 5)}`,
      name: STATIONS[i % STATIONS.length] ?? "",
      locNum: pad(i % 2500, 5),
      city: CITIES[i % CITIES.length] ?? "",
      state: "TX",
    },
    driver: {
      id: `drv_${pad(i % 48, 3)}`,
      name: DRIVERS[i % DRIVERS.length] ?? "",
      truckId: i % 6 === 0 ? null : `T-${pad(i % 40, 3)}`,
    },
    card: { last4: pad((i * 37) % 10_000, 4) },
    def: hasDef
      ? { gallons: decimal(5_000 + (i % 3_000), 3), amount: decimal(1_500 + (i % 900), 2), category: "DEF" }
      : null,
  };
}

const PAGE_SIZE = 200;

/** Like the upstream walk: a page at a time (one await per page), then its rows one by one. */
async function* generateRows(count: number): AsyncGenerator<Transaction> {
  for (let first = 0; first < count; first += PAGE_SIZE) {
    const page = await Promise.resolve(
      Array.from({ length: Math.min(PAGE_SIZE, count - first) }, (_, k) => makeTransaction(first + k)),
    );
    yield* page;
  }
}

interface Result {
  format: ExportFormat;
  rows: number;
  bytes: number;
  seconds: number;
  peakGrowthMb: number;
  peakHeapGrowthMb: number;
}

const isGc = (value: unknown): value is () => void => typeof value === "function";

/** Only with `node --expose-gc` (e.g. NODE_OPTIONS=--expose-gc); without it the figures include garbage not yet collected. */
function collectGarbage(): void {
  const gc: unknown = Reflect.get(globalThis, "gc");
  if (isGc(gc)) gc();
}

async function measure(format: ExportFormat, count: number): Promise<Result> {
  collectGarbage();
  const baseline = process.memoryUsage();
  let peakRss = baseline.rss;
  let peakHeap = baseline.heapUsed;
  const sample = (): void => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  };
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  const meta: ExportMeta = {
    filters: { from: "2024-11-20", to: "2026-11-20" },
    generatedAt: new Date(),
    customer: { name: "Prairie Freight Lines", code: "PFL" },
    expectedRows: count,
  };
  let rows = 0;
  let bytes = 0;
  const started = performance.now();
  try {
    const reader = exportTransactions(format, generateRows(count), meta, {
      onRow: (n) => {
        rows = n;
        if (n % SAMPLE_EVERY_ROWS === 0) sample();
      },
    }).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
    }
  } finally {
    clearInterval(timer);
  }
  sample();
  const seconds = (performance.now() - started) / 1000;
  return {
    format,
    rows,
    bytes,
    seconds,
    peakGrowthMb: (peakRss - baseline.rss) / MB,
    peakHeapGrowthMb: (peakHeap - baseline.heapUsed) / MB,
  };
}

async function main(): Promise<void> {
  // Load the modules and warm the JIT first, so the figures are the export's, not the first import's.
  await measure("csv", WARM_UP_ROWS);
  await measure("xlsx", WARM_UP_ROWS);
  console.log(
    `export of ${rowCount.toLocaleString("en-US")} rows (Node ${process.version}; gc ${isGc(Reflect.get(globalThis, "gc")) ? "exposed" : "not exposed"})`,
  );
  for (const format of ["csv", "xlsx"] as const) {
    const r = await measure(format, rowCount);
    const verdict = r.peakGrowthMb <= GOAL_MB ? "within" : "OVER";
    console.log(
      `  ${format.padEnd(4)} ${r.rows.toLocaleString("en-US")} rows, ${(r.bytes / MB).toFixed(1)} MB in ${r.seconds.toFixed(2)} s ` +
        `= ${Math.round(r.rows / r.seconds).toLocaleString("en-US")} rows/s; peak RSS growth ${r.peakGrowthMb.toFixed(1)} MB ` +
        `(${verdict} the ${String(GOAL_MB)} MB goal), peak heap growth ${r.peakHeapGrowthMb.toFixed(1)} MB`,
    );
  }
}

await main();
