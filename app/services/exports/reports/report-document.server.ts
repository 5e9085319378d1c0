import ExcelJS from "exceljs";
import { safeSheetName } from "~/services/xlsx-writer.server";
import type { Writable } from "node:stream";

// The invoice and the delivery sheet are documents (a heading block, then a table), a few hundred
// rows at most: they are laid out with exceljs' in-memory workbook rather than the streaming
// writer, whose first row is always the column headers.

export const MONEY = "#,##0.00";
export const VOLUME = "0.0000";

export function documentSheet(name: string, widths: number[]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(safeSheetName(name));
  ws.columns = widths.map((width) => ({ width }));
  return { wb, ws };
}

/** A row of label and value pairs; labels bold. */
export function labelled(ws: ExcelJS.Worksheet, label: string, value: string | number | null) {
  const row = ws.addRow([label, value ?? ""]);
  row.getCell(1).font = { bold: true };
  return row;
}

export function bold(row: ExcelJS.Row) {
  row.font = { bold: true };
  return row;
}

export function formats(row: ExcelJS.Row, byColumn: Record<number, string>) {
  for (const [col, numFmt] of Object.entries(byColumn)) row.getCell(Number(col)).numFmt = numFmt;
  return row;
}

export async function writeDocument(out: Writable, wb: ExcelJS.Workbook) {
  const data = Buffer.from(await wb.xlsx.writeBuffer());
  await new Promise<void>((resolve, reject) => {
    out.once("error", reject);
    out.end(data, () => resolve());
  });
}
