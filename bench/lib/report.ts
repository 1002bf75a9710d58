/**
 * The bench's figures and the report written from them. Pure functions only (no I/O), so they are unit-tested:
 * the statistics (median, percentile), the verdict of a figure against its goal, and the Markdown rendering.
 */

export const PART_NAMES = [
  "sandbox",
  "overhead",
  "economy",
  "export",
  "pages",
  "map",
  "a11y",
  "headers",
  "mirror",
  "insights-exceptions",
  "insights-jurisdictions",
  "insights-drilldowns",
  "insights-savings",
  "cluster-budget",
  "cluster",
  "concurrency",
] as const;
export type PartName = (typeof PART_NAMES)[number];

const PART_TITLES: Readonly<Record<PartName, string>> = {
  sandbox: "1. Sandbox: list queries at scale, vs a Prism mock",
  overhead: "2. BFF overhead: /api/transactions vs the sandbox direct",
  economy: "3. Request economy: upstream requests per journey",
  export: "4. Export: throughput vs the budget bound, memory, completeness",
  pages: "5. Pages: Lighthouse, JavaScript, filter-to-rows time, leaflet isolation",
  map: "6. Map: draw time and panning",
  a11y: "7. Accessibility: axe in light and dark theme",
  headers: "8. Security headers and the session cookie",
  mirror:
    "9. The fleet mirror: backfill rate, warm queries over 1,000,000 rows, size, upstream requests with the mirror on",
  "insights-exceptions": "10. Exceptions: GET /api/exceptions' rules over 30 and 90 days of 1,000,000 mirrored rows",
  "insights-jurisdictions": "11. Fuel by jurisdiction (quarter query p95 over 1,000,000 rows, XLSX export of 250,000)",
  "insights-drilldowns": "12. Drill-downs: ranked and detail queries over 1,000,000 mirrored rows",
  "insights-savings": "13. Savings against cheaper stations nearby over 1,000,000 mirrored rows",
  "cluster-budget": "14. Several instances: added latency of the request budget shared through Redis",
  cluster:
    "15. Several instances: requests/s of 1 vs 3 instances, upstream 429s under load, the shared budget's latency",
  concurrency: "16. No stall: /api/livez and an ordinary read while N sessions ask heavy mirror questions",
};

/** pass/fail: measured against a goal; info: measured, no goal; not-measured: could not be measured (says why). */
export type Status = "pass" | "fail" | "info" | "not-measured";

export interface Goal {
  op: "<=" | ">=" | "==";
  target: number | string;
}

export interface Figure {
  part: PartName;
  name: string;
  value: number | string | null;
  unit: string;
  goal: Goal | null;
  status: Status;
  /** The command that reproduces this figure. */
  command: string;
  /** How it was measured, or why it was not. */
  note: string;
}

interface MachineInfo {
  /** The CPU calibration workload's time on this host in this run (bench/lib/calibration.ts); absent in old samples. */
  calibrationMs?: number;
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  platform: string;
}

export interface PartError {
  part: PartName;
  message: string;
}

export interface Report {
  startedAt: string;
  finishedAt: string;
  machine: MachineInfo;
  /** The command line of the run (e.g. `npm run bench -- --smoke`). */
  command: string;
  smoke: boolean;
  long: boolean;
  parts: PartName[];
  secondsByPart: Partial<Record<PartName, number>>;
  figures: Figure[];
  /** Parts that broke (the bench's own failures, as opposed to missed goals). */
  errors: PartError[];
}

/** Median of the values (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  if (sorted.length % 2 === 1) return upper;
  return ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
}

/** Nearest-rank percentile (p in 0–100) of the values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

/** The verdict of a value against its goal; a value that is missing or not a finite number cannot pass a goal. */
export function judge(value: number | string | null, goal: Goal | null): Status {
  if (goal === null) return value === null ? "not-measured" : "info";
  if (value === null) return "not-measured";
  if (goal.op === "==") return String(value) === String(goal.target) ? "pass" : "fail";
  if (typeof value !== "number" || typeof goal.target !== "number" || !Number.isFinite(value)) return "fail";
  return goal.op === "<=" ? (value <= goal.target ? "pass" : "fail") : value >= goal.target ? "pass" : "fail";
}

export interface FigureInput {
  part: PartName;
  name: string;
  value: number | string | null;
  unit?: string;
  goal?: Goal | null;
  command: string;
  note?: string;
}

/** A figure with its verdict. */
export function makeFigure(input: FigureInput): Figure {
  const goal = input.goal ?? null;
  return {
    part: input.part,
    name: input.name,
    value: input.value,
    unit: input.unit ?? "",
    goal,
    status: judge(input.value, goal),
    command: input.command,
    note: input.note ?? "",
  };
}

/** A figure that could not be measured, with the reason (reported as such, never as a pass). */
export function notMeasured(input: Omit<FigureInput, "value"> & { reason: string }): Figure {
  return { ...makeFigure({ ...input, value: null }), status: "not-measured", note: `not available: ${input.reason}` };
}

/** Rounds for display: integers as they are, otherwise 3 significant digits below 100 and whole numbers above. */
export function formatValue(value: number | string | null, unit: string): string {
  if (value === null) return "—";
  const text = typeof value === "string" ? value : formatNumber(value);
  return unit === "" ? text : `${text} ${unit}`;
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value) || Math.abs(value) >= 100) return Math.round(value).toLocaleString("en-US");
  return Number(value.toPrecision(3)).toString();
}

const CALIBRATION_NOTE =
  "bench/lib/calibration.ts: a fixed mix of JSON, regular expressions, sorting and a SQLite aggregation on generated data, median of 5 runs, timed at the start of this run";

/** A time as a multiple of the run's calibration figure ("2.4 ×"), so hosts compare; "—" for other units. */
export function relativeToCalibration(value: number | string | null, unit: string, calibrationMs?: number): string {
  if (typeof value !== "number" || calibrationMs === undefined || !(calibrationMs > 0)) return "—";
  const ms = unit === "ms" ? value : unit === "s" ? value * 1000 : null;
  return ms === null ? "—" : `${formatNumber(ms / calibrationMs)} ×`;
}

function formatGoal(goal: Goal | null, unit: string): string {
  if (goal === null) return "—";
  const op = goal.op === "<=" ? "≤" : goal.op === ">=" ? "≥" : "=";
  return `${op} ${formatValue(goal.target, unit)}`;
}

const STATUS_LABELS: Readonly<Record<Status, string>> = {
  pass: "pass",
  fail: "**FAIL**",
  info: "info",
  "not-measured": "**not measured**",
};

/** Counts of figures by status. */
export function summarize(figures: readonly Figure[]): Record<Status, number> {
  const counts: Record<Status, number> = { pass: 0, fail: 0, info: 0, "not-measured": 0 };
  for (const f of figures) counts[f.status]++;
  return counts;
}

/** A Markdown table cell: pipes escaped and line breaks flattened. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** The report as Markdown: a summary, then one table per part (value, goal, verdict, command, how). */
export function renderMarkdown(report: Report): string {
  const counts = summarize(report.figures);
  const m = report.machine;
  const lines: string[] = [
    `# Fleet Fuel Dashboard: bench report${report.smoke ? " (smoke run: tiny sizes, figures are not meaningful)" : ""}`,
    "",
    `- Run: \`${report.command}\` from ${report.startedAt} to ${report.finishedAt}`,
    `- Machine: ${String(m.cpus)} × ${m.cpuModel}, ${String(m.memoryGb)} GB, Node ${m.node}, ${m.platform}`,
    m.calibrationMs === undefined
      ? "- CPU calibration: not taken"
      : `- CPU calibration: ${formatNumber(m.calibrationMs)} ms (${CALIBRATION_NOTE}); the column "× cal." is each time divided by it, to compare hosts`,
    `- Parts: ${report.parts.map((p) => `${p} (${formatNumber(report.secondsByPart[p] ?? 0)} s)`).join(", ")}`,
    `- Figures: ${String(counts.pass)} pass, ${String(counts.fail)} fail, ${String(counts["not-measured"])} not measured, ${String(counts.info)} for information`,
    `- Bench errors: ${report.errors.length === 0 ? "none" : report.errors.map((e) => `${e.part}: ${e.message}`).join("; ")}`,
    "",
    "How to read: each row is one figure with its goal and verdict. *fail* means the product missed a goal; *not measured*",
    "means the figure could not be taken (the reason is in the last column) and counts as missing, not as passing. The",
    "command reproduces the figure alone; the last column says how it was measured.",
  ];
  for (const part of report.parts) {
    const figures = report.figures.filter((f) => f.part === part);
    lines.push("", `## ${PART_TITLES[part]}`, "");
    const error = report.errors.find((e) => e.part === part);
    if (error) lines.push(`**The bench failed in this part:** ${cell(error.message)}`, "");
    if (figures.length === 0) {
      lines.push("No figures.");
      continue;
    }
    lines.push("| figure | value | × cal. | goal | verdict | command | how |", "|---|---|---|---|---|---|---|");
    for (const f of figures) {
      lines.push(
        `| ${cell(f.name)} | ${cell(formatValue(f.value, f.unit))} | ${relativeToCalibration(f.value, f.unit, m.calibrationMs)} | ${cell(formatGoal(f.goal, f.unit))} | ${STATUS_LABELS[f.status]} | \`${cell(f.command)}\` | ${cell(f.note)} |`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
