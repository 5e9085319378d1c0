import { z } from "zod";
import { mixedStackReportExists, readMixedStackReport } from "~/models/mixed-stack-report.server";
import { EXCEL_DATE_TIME, wallClock } from "~/services/excel-reports.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import { ExportIdSchema } from "~/utils/schemas/export";
import type { ExcelExportType, ExcelWriteContext, RowSource } from "../types";
import type { Writable } from "node:stream";

// mixed_stack_report_excel: one mixed stack report (mixed_stack_report_id): a summary sheet with
// its figures (the same app/domain figures as its page: log count, diameters, average JAS,
// delivered tons, stack volume, tons per m³ and m³ per ton) and a sheet of its measurements in
// both groups, close up first. Diameters in cm, volumes in m³ (as on the report's page).

export type MixedStackSelection = { mixed_stack_report_id: number };

const MixedStackSelectionSchema = z.object({ mixed_stack_report_id: ExportIdSchema });

const mixedStackSource: RowSource<MixedStackSelection> = {
  async request(db, ctx, selection) {
    if (!(await mixedStackReportExists(db, ctx.organizationId, selection.mixed_stack_report_id))) return "not_found";
    return { selection, count: 1 };
  },
  revive: (params) => MixedStackSelectionSchema.parse(params),
  async prepare(db, organizationId, selection) {
    const report = await readMixedStackReport(db, organizationId, selection.mixed_stack_report_id);
    if (!report) return { records: 0, expectedRows: 0, leftOut: [] };
    const rows = report.measurements_data.close_up.length + report.measurements_data.far_away.length;
    return { records: 1, expectedRows: rows, leftOut: [] };
  },
};

export const mixedStackReportExcel: ExcelExportType<MixedStackSelection> = {
  reportType: "mixed_stack_report_excel",
  kind: "excel",
  labelKey: "exports:types.mixed_stack_report_excel",
  nameSuffix: (selection) => `#${selection.mixed_stack_report_id}`,
  feature: "mixed_stack_reports",
  selectionKeys: ["mixed_stack_report_id"],
  selection: MixedStackSelectionSchema,
  source: mixedStackSource,
  write: (out, ctx) => writeMixedStackReport(out, ctx),
};

async function writeMixedStackReport(out: Writable, ctx: ExcelWriteContext<MixedStackSelection>) {
  const { t } = ctx;
  const report = await readMixedStackReport(ctx.db, ctx.organizationId, ctx.selection.mixed_stack_report_id);
  if (!report) throw new Error("mixed stack report gone");
  const wb = createWorkbook(out);

  const summary = new SheetWriter(wb, t("mixed-stack:excel.sheets.summary"), [
    { header: t("mixed-stack:excel.columns.figure"), kind: "text", width: 30 },
    { header: t("mixed-stack:excel.columns.value"), kind: "number", numFmt: "0.000", width: 14 },
    { header: t("mixed-stack:excel.columns.unit"), kind: "text", width: 10 },
  ]);
  summary.add([t("mixed-stack:fields.name"), null, report.name]);
  const figure = (key: string, value: number | null, unit: string) =>
    summary.add([t(`mixed-stack:figures.${key}`), value, unit]);
  figure("totalDelivery", report.total_delivery_tons, "t");
  figure("logCount", report.log_count, "");
  figure("minDiameter", report.min_diameter, "cm");
  figure("maxDiameter", report.max_diameter, "cm");
  figure("averageDiameter", report.average_diameter, "cm");
  figure("averageJas", report.average_jas, "cm");
  figure("farAwayVolume", report.far_away_volume, "m³");
  figure("tonsPerM3", report.tons_per_m3, "t/m³");
  figure("m3PerTon", report.m3_per_ton, "m³/t");
  summary.commit();

  const sheet = new SheetWriter(wb, t("mixed-stack:excel.sheets.measurements"), [
    { header: t("mixed-stack:excel.columns.category"), kind: "text", width: 14 },
    { header: t("mixed-stack:excel.columns.measurementId"), kind: "int", width: 12 },
    { header: t("mixed-stack:excel.columns.takenAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("mixed-stack:excel.columns.logs"), kind: "int", width: 10 },
    { header: t("mixed-stack:excel.columns.volume"), kind: "number", numFmt: "0.000", width: 14 },
  ]);
  for (const category of ["close_up", "far_away"] as const) {
    for (const m of report.measurements_data[category]) {
      sheet.add([
        t(`mixed-stack:groups.${category}`),
        m.id,
        wallClock(m.taken_at, ctx.timeZone),
        m.log_count,
        m.volume,
      ]);
    }
  }
  sheet.commit();
  await wb.commit();
  return { rowCount: sheet.count };
}
