import { z } from "zod";
import { volumeUnitLabel, type LogFormula } from "~/domain";
import { isoDayToDisplay } from "~/domain/format";
import { readReportFor } from "~/models/report.server";
import { EXCEL_BATCH, EXCEL_DATE_TIME, wallClock } from "~/services/excel-reports.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import { ExportIdSchema } from "~/utils/schemas/export";
import { reportLogRows } from "./report-logs.server";
import { reportSource, reportSuffix } from "./report-source.server";
import type { ExcelExportType, ExcelWriteContext } from "../types";
import type { Writable } from "node:stream";

// report_tally_sheet_excel (docs/decisions/026): the report's logs as a tally sheet, measurement by
// measurement: every live log with its measured diameter, its scaling diameter (JAS: whole cm
// below 14, even cm from 14; other formulas: the report's whole-cm class), length and volume in the
// report's unit, then the measurement's subtotal and at the end the total. `tally_formula`: the
// report's own formula (default; the total is then the report's) or JAS (the usual export sheet).
// A second sheet sums per measurement, a third names the report, formula and unit.

export const TALLY_FORMULAS = ["report", "jas"] as const;
export type TallySheetSelection = { report_id: number; tally_formula: (typeof TALLY_FORMULAS)[number] };

export const TallySheetSelectionSchema = z
  .looseObject({
    report_id: ExportIdSchema.optional(),
    tally_formula: z.preprocess((v) => (v === "" || v == null ? "report" : v), z.enum(TALLY_FORMULAS)),
  })
  .transform((body, ctx) => {
    if (body.report_id === undefined) {
      ctx.addIssue({ code: "custom", path: ["report_id"], message: "exports:errors.emptySelection" });
      return z.NEVER;
    }
    return { report_id: body.report_id, tally_formula: body.tally_formula };
  });

export const reportTallySheetExcel: ExcelExportType<TallySheetSelection> = {
  reportType: "report_tally_sheet_excel",
  kind: "excel",
  labelKey: "exports:types.report_tally_sheet_excel",
  nameSuffix: reportSuffix,
  feature: "reports",
  selectionKeys: ["report_id"],
  selection: TallySheetSelectionSchema,
  source: reportSource((params) => TallySheetSelectionSchema.parse(params), "logs"),
  write: (out, ctx) => writeTallySheet(out, ctx),
};

const VOLUME = "0.0000";

async function writeTallySheet(out: Writable, ctx: ExcelWriteContext<TallySheetSelection>) {
  const { t } = ctx;
  const report = await readReportFor(ctx.db, ctx.organizationId, ctx.selection.report_id);
  if (!report) throw new Error("report gone");
  const formula: LogFormula = ctx.selection.tally_formula === "jas" ? "jas" : (report.volume_formula as LogFormula);
  const unit = volumeUnitLabel(report.volume_unit);
  const wb = createWorkbook(out);
  const sheet = new SheetWriter(wb, t("reports:files.tallySheet"), [
    { header: t("reports:excel.measurementId"), kind: "int", width: 12 },
    { header: t("reports:files.storage"), kind: "text", width: 22 },
    { header: t("reports:excel.takenAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("reports:files.logNumber"), kind: "int", width: 8 },
    { header: t("reports:files.measuredDiameter"), kind: "number", numFmt: "0.0", width: 14 },
    { header: t("reports:files.scaleDiameter"), kind: "int", width: 14 },
    { header: t("reports:files.length"), kind: "number", numFmt: "0.00", width: 10 },
    { header: t("reports:detail.logCount"), kind: "int", width: 8 },
    { header: t("reports:detail.volume", { unit }), kind: "number", numFmt: VOLUME, width: 14 },
    { header: t("reports:detail.characteristic"), kind: "text", width: 24 },
    { header: t("reports:detail.cull"), kind: "text", width: 18 },
  ]);
  type Sub = { id: number; storage: string | null; takenAt: Date; logs: number; volume: number };
  const perMeasurement: Sub[] = [];
  let current: Sub | null = null;
  const total = { logs: 0, volume: 0 };
  const close = () => {
    if (!current) return;
    sheet.add([current.id, t("reports:files.subtotal"), null, null, null, null, null, current.logs, current.volume]);
    perMeasurement.push(current);
  };
  let written = 0;
  for await (const row of reportLogRows(ctx.db, report, formula)) {
    if (!current || current.id !== row.measurementId) {
      close();
      current = {
        id: row.measurementId,
        storage: row.storageName,
        takenAt: wallClock(row.takenAt, ctx.timeZone),
        logs: 0,
        volume: 0,
      };
    }
    current.logs += 1;
    current.volume += row.metered.volume;
    total.logs += 1;
    total.volume += row.metered.volume;
    sheet.add([
      row.measurementId,
      row.storageName,
      current.takenAt,
      current.logs,
      row.d,
      row.metered.scaleDiameter,
      row.lengthM,
      1,
      row.metered.volume,
      row.assortmentName,
      row.cullName,
    ]);
    if (++written % EXCEL_BATCH === 0) {
      await sheet.drain();
      await ctx.onProgress(Math.min(0.99, written / Math.max(1, ctx.expectedRows)));
    }
  }
  close();
  sheet.add([null, t("reports:detail.total"), null, null, null, null, null, total.logs, total.volume]);
  sheet.commit();

  const sums = new SheetWriter(wb, t("reports:files.perMeasurement"), [
    { header: t("reports:excel.measurementId"), kind: "int", width: 12 },
    { header: t("reports:files.storage"), kind: "text", width: 22 },
    { header: t("reports:excel.takenAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("reports:detail.logCount"), kind: "int", width: 8 },
    { header: t("reports:detail.volume", { unit }), kind: "number", numFmt: VOLUME, width: 14 },
  ]);
  for (const m of perMeasurement) sums.add([m.id, m.storage, m.takenAt, m.logs, m.volume]);
  sums.add([null, t("reports:detail.total"), null, total.logs, total.volume]);
  sums.commit();

  const about = new SheetWriter(wb, t("reports:excel.summary"), [
    { header: t("reports:fields.name"), kind: "text", width: 30 },
    { header: report.name, kind: "text", width: 36 },
  ]);
  about.add([t("reports:fields.reportedAt"), isoDayToDisplay(report.reported_at)]);
  about.add([t("reports:files.tallyFormula"), t(`lookups:formulas.${formula}.name`)]);
  about.add([t("reports:fields.volumeUnit"), unit]);
  about.commit();
  await wb.commit();
  return { rowCount: written };
}
