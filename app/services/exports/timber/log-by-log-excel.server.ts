import { clampPrecision, roundHalfUp, volumeUnitLabel } from "~/domain";
import { streamLogRows, type Selection } from "~/models/export-rows.server";
import { decimalsFormat, EXCEL_BATCH, EXCEL_DATE_TIME, toUserVolume, wallClock } from "~/services/excel-reports.server";
import { createWorkbook, SheetWriter, type SheetColumn } from "~/services/xlsx-writer.server";
import {
  IdsOrFiltersSelectionSchema,
  oneMeasurementSuffix,
  timberMeasurementSource,
} from "./measurement-source.server";
import type { ExcelExportType, ExcelWriteContext } from "../types";
import type { Writable } from "node:stream";

// log_by_log_excel: every kept log of the chosen measurements (ids, one measurement, one
// storage, or the dashboard's filters) with what the screens show: the diameter rounded to 1
// decimal (cm) and the volume rounded half up to the owner's precision (1-4 decimals), so a sum
// in Excel adds the numbers the user sees on the screen.

export const logByLogExcel: ExcelExportType<Selection> = {
  reportType: "log_by_log_excel",
  kind: "excel",
  labelKey: "exports:types.log_by_log_excel",
  nameSuffix: oneMeasurementSuffix,
  selectionKeys: ["measurement_ids", "measurement_id", "storage_id"],
  selection: IdsOrFiltersSelectionSchema,
  source: timberMeasurementSource({ rows: "logs" }),
  write: (out, ctx) => writeLogByLog(out, ctx, false),
};

/** One row per kept log of the selection; `precise` adds the raw values and the pixel circle. */
export async function writeLogByLog(
  out: Writable,
  ctx: ExcelWriteContext<Selection>,
  precise: boolean,
): Promise<{ rowCount: number }> {
  const { t } = ctx;
  const precision = clampPrecision(ctx.precision);
  const unit = volumeUnitLabel(ctx.volumeUnit);
  const columns: SheetColumn[] = [
    { header: t("excel.columns.storage"), kind: "text", width: 24 },
    { header: t("excel.columns.measurementId"), kind: "int", width: 14 },
    { header: t("excel.columns.takenAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("excel.columns.logNumber"), kind: "int", width: 10 },
    {
      header: t("excel.columns.diameter", { unit: "cm" }),
      kind: "number",
      numFmt: precise ? "0.000" : "0.0",
      width: 14,
    },
    { header: t("excel.columns.length", { unit: "m" }), kind: "number", numFmt: "0.00", width: 12 },
    {
      header: t("excel.columns.volume", { unit }),
      kind: "number",
      numFmt: precise ? "0.000000" : decimalsFormat(precision),
      width: 14,
    },
    { header: t("excel.columns.assortment"), kind: "text", width: 24 },
    { header: t("excel.columns.cull"), kind: "text", width: 20 },
  ];
  if (precise) {
    columns.push(
      { header: t("excel.columns.x", { unit: "px" }), kind: "number", numFmt: "0.00", width: 10 },
      { header: t("excel.columns.y", { unit: "px" }), kind: "number", numFmt: "0.00", width: 10 },
      { header: t("excel.columns.r", { unit: "px" }), kind: "number", numFmt: "0.00", width: 10 },
    );
  }
  const wb = createWorkbook(out);
  const sheet = new SheetWriter(wb, t(precise ? "excel.sheets.preciseLogs" : "excel.sheets.logs"), columns);

  let measurementId = -1;
  let logNumber = 0;
  let takenAt = new Date(0);
  for await (const row of streamLogRows(ctx.db, ctx, ctx.selection, { pixels: precise })) {
    if (row.measurement_id !== measurementId) {
      measurementId = row.measurement_id;
      logNumber = 0;
      takenAt = wallClock(row.taken_at, ctx.timeZone);
    }
    logNumber++;
    const v = toUserVolume(row.v, row.volume_formula, ctx.volumeUnit, row.coefficient);
    const values = [
      row.storage_name,
      row.measurement_id,
      takenAt,
      logNumber,
      precise ? row.d : roundHalfUp(row.d, 1),
      row.log_length,
      precise ? v : roundHalfUp(v, precision),
      row.assortment_name,
      row.cull_reason,
    ];
    if (precise) values.push(row.x, row.y, row.r);
    sheet.add(values);
    if (sheet.count % EXCEL_BATCH === 0) {
      await sheet.drain();
      if (sheet.count % (EXCEL_BATCH * 10) === 0) await ctx.onProgress(sheet.count / Math.max(1, ctx.expectedRows));
    }
  }
  sheet.commit();
  await wb.commit();
  return { rowCount: sheet.count };
}
