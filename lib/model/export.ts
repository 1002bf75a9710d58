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
  /**
   * What bounds the export's speed, for the page's time estimate: rows per upstream request (the page size) and the
   * key's request budget as the BFF knows it now (requests per window, the window, requests already in it, and how
   * long a 429 still pauses the key). Every page of the walk is one request, so the rows left take about
   * ⌈rows left / rowsPerRequest⌉ requests at `requestsPerWindow` per `windowSeconds`.
   */
  rate: ExportRate;
}

export interface ExportRate {
  rowsPerRequest: number;
  requestsPerWindow: number;
  windowSeconds: number;
  sentInWindow: number;
  pausedForSeconds: number;
}
