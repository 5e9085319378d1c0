import { clampPrecision, roundHalfUp, volumeUnitLabel } from "~/domain";
import { storageTotals, streamDashboardRows, type Selection } from "~/models/export-rows.server";
import { decimalsFormat, EXCEL_BATCH, EXCEL_DATE_TIME, toUserVolume, wallClock } from "~/services/excel-reports.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import { formulaName, lookupName, measurementTypeName, storageStateName } from "~/utils/lookup-name";
import { DashboardSelectionSchema, timberMeasurementSource } from "./measurement-source.server";
import type { ExcelExportType, ExcelWriteContext } from "../types";
import type { Writable } from "node:stream";

// dashboard_excel: the timber dashboard as it is filtered: a sheet of storages with their totals
// and a sheet of the measurements with their lookups.

export const dashboardExcel: ExcelExportType<Selection> = {
  reportType: "dashboard_excel",
  kind: "excel",
  labelKey: "exports:types.dashboard_excel",
  // measurement_ids is one of the dashboard's filters here.
  selectionKeys: ["measurement_ids"],
  selection: DashboardSelectionSchema,
  source: timberMeasurementSource({ rows: "measurements" }),
  write: (out, ctx) => writeDashboard(out, ctx),
};

async function writeDashboard(out: Writable, ctx: ExcelWriteContext<Selection>): Promise<{ rowCount: number }> {
  const { t } = ctx;
  const precision = clampPrecision(ctx.precision);
  const unit = volumeUnitLabel(ctx.volumeUnit);
  const volumeFmt = decimalsFormat(precision);
  const wb = createWorkbook(out);

  // Storages first: the dashboard's left column, one line per storage with its totals.
  const storages = new SheetWriter(wb, t("excel.sheets.storages"), [
    { header: t("excel.columns.storage"), kind: "text", width: 28 },
    { header: t("excel.columns.storageState"), kind: "text", width: 16 },
    { header: t("excel.columns.measurements"), kind: "int", width: 14 },
    { header: t("excel.columns.logs"), kind: "int", width: 10 },
    { header: t("excel.columns.volume", { unit }), kind: "number", numFmt: volumeFmt, width: 14 },
  ]);
  // One SQL group per storage and formula, each converted from its formula's unit.
  const totals = new Map<number, { name: string; state: number; measurements: number; logs: number; volume: number }>();
  for (const g of await storageTotals(ctx.db, ctx, ctx.selection)) {
    let s = totals.get(g.id);
    if (!s) totals.set(g.id, (s = { name: g.name, state: g.storage_state_id, measurements: 0, logs: 0, volume: 0 }));
    s.measurements += Number(g.measurements_count);
    s.logs += Number(g.logs_count ?? 0);
    s.volume += toUserVolume(Number(g.volume ?? 0), g.volume_formula, ctx.volumeUnit, null);
  }
  for (const s of totals.values()) {
    storages.add([s.name, storageStateName(t, s.state), s.measurements, s.logs, roundHalfUp(s.volume, precision)]);
  }
  storages.commit();

  const sheet = new SheetWriter(wb, t("excel.sheets.measurements"), [
    { header: t("excel.columns.measurementId"), kind: "int", width: 12 },
    { header: t("excel.columns.storage"), kind: "text", width: 24 },
    { header: t("excel.columns.takenAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("excel.columns.measuredAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("excel.columns.measurementType"), kind: "text", width: 14 },
    { header: t("excel.columns.woodType"), kind: "text", width: 16 },
    { header: t("excel.columns.woodQuality"), kind: "text", width: 12 },
    { header: t("excel.columns.assortment"), kind: "text", width: 24 },
    { header: t("excel.columns.length", { unit: "m" }), kind: "number", numFmt: "0.00", width: 12 },
    { header: t("excel.columns.logs"), kind: "int", width: 10 },
    { header: t("excel.columns.volume", { unit }), kind: "number", numFmt: volumeFmt, width: 14 },
    { header: t("excel.columns.formula"), kind: "text", width: 16 },
    { header: t("excel.columns.comment"), kind: "text", width: 30 },
  ]);
  for await (const m of streamDashboardRows(ctx.db, ctx, ctx.selection)) {
    sheet.add([
      m.id,
      m.storage_name,
      wallClock(m.taken_at, ctx.timeZone),
      m.measured_at ? wallClock(m.measured_at, ctx.timeZone) : null,
      measurementTypeName(t, m.measurement_type_id),
      m.wood_type_id === null
        ? null
        : lookupName(t, "wood_types", { id: m.wood_type_id, name: m.wood_type_name, organization_id: m.wood_type_org }),
      m.wood_quality_id === null
        ? null
        : lookupName(t, "wood_qualities", {
            id: m.wood_quality_id,
            name: m.wood_quality_name,
            organization_id: m.wood_quality_org,
          }),
      m.assortment_name,
      m.log_length,
      m.logs_count,
      roundHalfUp(toUserVolume(m.volume, m.volume_formula, ctx.volumeUnit, m.coefficient), precision),
      formulaName(t, m.volume_formula),
      m.comment,
    ]);
    if (sheet.count % EXCEL_BATCH === 0) {
      await sheet.drain();
      await ctx.onProgress(sheet.count / Math.max(1, ctx.expectedRows));
    }
  }
  sheet.commit();
  await wb.commit();
  return { rowCount: sheet.count };
}
