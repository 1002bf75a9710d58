/** The export contract between `GET /api/transactions/export(/progress)` and the page. Types only. */

export type ExportFormat = "csv" | "xlsx";

/** What `GET /api/transactions/export/progress?exportId=` answers. */
export interface ExportProgress {
  state: "running" | "done" | "failed" | "cancelled";
  rowsDone: number;
  expectedRows: number;
  startedAt: string;
  updatedAt: string;
  message: string | null;
}
