import { volumeUnitLabel } from "~/domain/format";
import { readReportFor, reportMeasurementRows } from "~/models/report.server";
import { EXCEL_DATE_TIME, wallClock } from "~/services/excel-reports.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import { reportSource, reportSuffix, ReportSelectionSchema, type ReportSelection } from "./report-source.server";
import type { ExcelExportType, ExcelWriteContext } from "../types";
import type { Writable } from "node:stream";

// reports_excel (docs/decisions/021-reports.md): one report (report_id) as its page shows it, from
// the tallies its job stored: a summary, logs by diameter, assortments with prices and value,
// culls, and its measurements. Volumes in the report's unit to 4 decimals, money to 2.

const revive = (params: unknown) => ReportSelectionSchema.parse(params);

export const reportsExcel: ExcelExportType<ReportSelection> = {
  reportType: "reports_excel",
  kind: "excel",
  labelKey: "exports:types.reports_excel",
  nameSuffix: reportSuffix,
  feature: "reports",
  selectionKeys: ["report_id"],
  selection: ReportSelectionSchema,
  source: reportSource(revive),
  write: (out, ctx) => writeReport(out, ctx),
};

const VOLUME = "0.0000";
const MONEY = "#,##0.00";

async function writeReport(out: Writable, ctx: ExcelWriteContext<ReportSelection>) {
  const { t } = ctx;
  const report = await readReportFor(ctx.db, ctx.organizationId, ctx.selection.report_id);
  const details = report?.details;
  if (!report || !details) throw new Error("report gone");
  const unit = volumeUnitLabel(report.volume_unit);
  const wb = createWorkbook(out);

  const summary = new SheetWriter(wb, t("reports:excel.summary"), [
    { header: t("reports:fields.name"), kind: "text", width: 30 },
    { header: report.name, kind: "text", width: 30 },
  ]);
  summary.add([t("reports:fields.reportedAt"), report.reported_at]);
  summary.add([t("reports:fields.volumeFormula"), t(`lookups:formulas.${report.volume_formula}.name`)]);
  summary.add([t("reports:fields.volumeUnit"), unit]);
  summary.add([t("reports:detail.logCount"), String(details.totals.log_count)]);
  summary.commit();

  const logs = new SheetWriter(wb, t("reports:excel.logs"), [
    { header: t("reports:detail.diameter"), kind: "int", width: 12 },
    { header: t("reports:detail.logCount"), kind: "int", width: 10 },
    { header: t("reports:detail.volume", { unit }), kind: "number", numFmt: VOLUME, width: 14 },
    { header: t("reports:detail.characteristic"), kind: "text", width: 28 },
    { header: t("reports:detail.cull"), kind: "text", width: 20 },
  ]);
  const names = new Map(details.characteristics.map((c) => [c.id, c.name]));
  const culls = new Map(details.culls.map((c) => [c.id, c.name]));
  for (const l of details.logs)
    logs.add([
      l.diameter,
      l.log_count,
      l.volume,
      l.characteristic_id === null ? null : (names.get(l.characteristic_id) ?? `#${l.characteristic_id}`),
      l.cull_id === null ? null : (culls.get(l.cull_id) ?? `#${l.cull_id}`),
    ]);
  logs.add([null, details.totals.log_count, details.totals.volume, t("reports:detail.total"), null]);
  logs.commit();

  const characteristics = new SheetWriter(wb, t("reports:excel.characteristics"), [
    { header: t("reports:detail.characteristic"), kind: "text", width: 28 },
    { header: t("reports:detail.price"), kind: "number", numFmt: MONEY, width: 12 },
    { header: t("reports:detail.logCount"), kind: "int", width: 10 },
    { header: t("reports:detail.volume", { unit }), kind: "number", numFmt: VOLUME, width: 14 },
    { header: t("reports:detail.value"), kind: "number", numFmt: MONEY, width: 14 },
  ]);
  for (const c of details.characteristics)
    characteristics.add([c.name, c.price_per_log ?? c.price, c.log_count, c.volume, c.value]);
  characteristics.add([t("reports:detail.totalValue"), null, null, null, details.totals.value]);
  characteristics.commit();

  const cullSheet = new SheetWriter(wb, t("reports:excel.culls"), [
    { header: t("reports:detail.cull"), kind: "text", width: 28 },
    { header: t("reports:detail.logCount"), kind: "int", width: 10 },
    { header: t("reports:detail.volume", { unit }), kind: "number", numFmt: VOLUME, width: 14 },
  ]);
  for (const c of details.culls) cullSheet.add([c.name, c.log_count, c.volume]);
  cullSheet.commit();

  const measurements = new SheetWriter(wb, t("reports:excel.measurements"), [
    { header: t("reports:excel.measurementId"), kind: "int", width: 12 },
    { header: t("reports:excel.takenAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("reports:detail.logCount"), kind: "int", width: 10 },
  ]);
  for (const m of await reportMeasurementRows(ctx.db, report))
    measurements.add([m.id, wallClock(m.taken_at, ctx.timeZone), m.logs_count]);
  measurements.commit();
  await wb.commit();
  return { rowCount: logs.count };
}
