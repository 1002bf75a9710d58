import { describe, expect, it } from "vitest";

import {
  contentDisposition as fileNamesDisposition,
  exportFilename as fileNamesFilename,
} from "@/lib/format/file-names";

import { fromList, makeTransactions, META, readAll } from "./fixtures/rows";
import {
  canGateXlsxSheets,
  contentDisposition,
  EXPORT_CONTENT_TYPES,
  EXPORT_HEADERS,
  exportFilename,
  exportTransactions,
  neutralizeCell,
} from "./index";

describe("EXPORT_CONTENT_TYPES", () => {
  it("are the registered types", () => {
    expect(EXPORT_CONTENT_TYPES).toEqual({
      csv: "text/csv; charset=utf-8",
      xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    });
  });
});

describe("the public face (@/lib/bff/files)", () => {
  it("keeps the names the export route, the bench and the tests import", () => {
    for (const value of [canGateXlsxSheets, contentDisposition, exportFilename, exportTransactions, neutralizeCell])
      expect(value).toBeTypeOf("function");
    expect(EXPORT_HEADERS).toHaveLength(19);
    // The file name rule has one home: these are lib/format's functions, not copies.
    expect(exportFilename).toBe(fileNamesFilename);
    expect(contentDisposition).toBe(fileNamesDisposition);
  });

  it("writes the format asked for: a CSV with a BOM, or an XLSX (a zip)", async () => {
    const items = makeTransactions(3);
    const csv = await readAll(exportTransactions("csv", fromList(items).rows, META));
    const xlsx = await readAll(exportTransactions("xlsx", fromList(items).rows, META));
    expect([csv.error, xlsx.error]).toEqual([null, null]);
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(xlsx.bytes.subarray(0, 4).toString("latin1")).toBe("PK\u0003\u0004");
  });
});
