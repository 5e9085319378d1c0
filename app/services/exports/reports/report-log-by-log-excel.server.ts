import { roundHalfUp, volumeUnitLabel } from "~/domain";
import { readReportFor } from "~/models/report.server";
import { EXCEL_BATCH, EXCEL_DATE_TIME, wallClock } from "~/services/excel-reports.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import { reportLogRows } from "./report-logs.server";
import { reportSource, reportSuffix, ReportSelectionSchema, type ReportSelection } from "./report-source.server";
import type { ExcelExportType, ExcelWriteContext } from "../types";
import type { Writable } from "node:stream";

// report_log_by_log_excel (docs/decisions/026): one row per live log of the report's live
// measurements, as the report counts it: the measured diameter (1 decimal, as the screens show
// it), the report's diameter class, the measurement's log length, the volume under the report's
// formula in the report's unit (unrounded, shown to 4 decimals like the report's tables, so a sum
// in Excel is the report's total) and the assortment or cull the log is tallied under.

export const reportLogByLogExcel: ExcelExportType<ReportSelection> = {
  reportType: "report_log_by_log_excel",
  kind: "excel",
  labelKey: "exports:types.report_log_by_log_excel",
  nameSuffix: reportSuffix,
  feature: "reports",
  selectionKeys: ["report_id"],
  selection: ReportSelectionSchema,
  source: reportSource((params) => ReportSelectionSchema.parse(params), "logs"),
  write: (out, ctx) => writeLogByLog(out, ctx),
};

async function writeLogByLog(out: Writable, ctx: ExcelWriteContext<ReportSelection>) {
  const { t } = ctx;
  const report = await readReportFor(ctx.db, ctx.organizationId, ctx.selection.report_id);
  if (!report) throw new Error("report gone");
  const unit = volumeUnitLabel(report.volume_unit);
  const wb = createWorkbook(out);
  const sheet = new SheetWriter(wb, t("reports:excel.logs"), [
    { header: t("reports:excel.measurementId"), kind: "int", width: 12 },
    { header: t("reports:files.storage"), kind: "text", width: 22 },
    { header: t("reports:excel.takenAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("reports:files.logNumber"), kind: "int", width: 8 },
    { header: t("reports:files.measuredDiameter"), kind: "number", numFmt: "0.0", width: 14 },
    { header: t("reports:detail.diameter"), kind: "int", width: 12 },
    { header: t("reports:files.length"), kind: "number", numFmt: "0.00", width: 10 },
    { header: t("reports:detail.volume", { unit }), kind: "number", numFmt: "0.0000", width: 14 },
    { header: t("reports:detail.characteristic"), kind: "text", width: 24 },
    { header: t("reports:detail.cull"), kind: "text", width: 18 },
  ]);
  let measurementId = -1;
  let logNumber = 0;
  let takenAt = new Date(0);
  for await (const row of reportLogRows(ctx.db, report)) {
    if (row.measurementId !== measurementId) {
      measurementId = row.measurementId;
      logNumber = 0;
      takenAt = wallClock(row.takenAt, ctx.timeZone);
    }
    logNumber += 1;
    sheet.add([
      row.measurementId,
      row.storageName,
      takenAt,
      logNumber,
      roundHalfUp(row.d, 1),
      row.metered.diameter,
      row.lengthM,
      row.metered.volume,
      row.assortmentName,
      row.cullName,
    ]);
    if (sheet.count % EXCEL_BATCH === 0) {
      await sheet.drain();
      if (sheet.count % (EXCEL_BATCH * 10) === 0) await ctx.onProgress(sheet.count / Math.max(1, ctx.expectedRows));
    }
  }
  sheet.commit();
  await wb.commit();
  return { rowCount: sheet.count };
}
