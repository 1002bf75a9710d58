"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";

import { DataTable, useListTable } from "@/components/ui/data-table";
import type { ExceptionRuleSummary, ExceptionThreshold } from "@/lib/model/insight-exceptions";

import { countChange } from "./exception-links";

/** The count per rule with the change against the previous period, and the thresholds in force. */

const rule = createColumnHelper<ExceptionRuleSummary>();

const RULE_COLUMNS = [
  rule.accessor("name", {
    header: "Rule",
    meta: { rowHeader: true, card: "title" },
    cell: ({ row }) => (
      <span>
        <span className="font-medium">{row.original.name}</span>
        <span className="block text-xs text-slate-600 dark:text-slate-400">{row.original.description}</span>
      </span>
    ),
  }),
  rule.accessor("count", {
    header: "Hits",
    meta: { card: "primary" },
    cell: ({ row }) =>
      row.original.status === "not_run" ? (
        <span className="text-sm">{row.original.reason}</span>
      ) : (
        <span data-testid={`count-${row.original.id}`} className="font-semibold tabular-nums">
          {row.original.count}
        </span>
      ),
  }),
  rule.display({
    id: "change",
    header: "Change",
    meta: { card: "primary" },
    cell: ({ row }) => {
      const change = countChange(row.original.count, row.original.previousCount);
      if (change === null) return <span className="text-slate-600 dark:text-slate-400">Not known</span>;
      return (
        <span>
          {change.arrow === null ? null : <span aria-hidden="true">{change.arrow} </span>}
          {change.text}
        </span>
      );
    },
  }),
  rule.accessor("notJudged", {
    header: "Not judged",
    meta: { card: "secondary" },
    cell: ({ getValue }) => <span className="text-sm">{getValue() ?? "—"}</span>,
  }),
];

export function RuleCountsTable({ rules, caption }: { rules: ExceptionRuleSummary[]; caption: string }) {
  const rows = useMemo(() => rules, [rules]);
  const table = useListTable(rows, RULE_COLUMNS);
  return (
    <DataTable table={table} caption={caption} variant="plain" testId="exception-rules" className="min-w-[40rem]" />
  );
}

type ThresholdRow = ExceptionThreshold & { id: string };
const threshold = createColumnHelper<ThresholdRow>();

const THRESHOLD_COLUMNS = [
  threshold.accessor("label", { header: "Threshold", meta: { rowHeader: true, card: "title" } }),
  threshold.accessor("value", { header: "In force", meta: { card: "primary" } }),
  threshold.accessor("defaultValue", { header: "Default", meta: { card: "primary" } }),
];

export function ThresholdsTable({ thresholds }: { thresholds: ExceptionThreshold[] }) {
  const rows = useMemo(() => thresholds.map((t) => ({ ...t, id: t.env })), [thresholds]);
  const table = useListTable(rows, THRESHOLD_COLUMNS);
  return (
    <DataTable
      table={table}
      caption="The thresholds the rules use, with their defaults"
      variant="plain"
      testId="exception-thresholds"
      className="min-w-[28rem]"
    />
  );
}
