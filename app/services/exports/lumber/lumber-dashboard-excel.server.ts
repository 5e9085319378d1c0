import { clampPrecision, convertLength, convertVolume, roundHalfUp, volumeUnitLabel } from "~/domain";
import { selectionFromParams, type Selection } from "~/models/export-rows.server";
import {
  countLumberSelected,
  lumberCustomFieldKeys,
  lumberStorageTotals,
  streamLumberExportRows,
} from "~/models/lumber-dashboard.server";
import { decimalsFormat, EXCEL_BATCH, EXCEL_DATE_TIME, wallClock } from "~/services/excel-reports.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import { measurementTypeName, storageStateName } from "~/utils/lookup-name";
import { DashboardSelectionSchema } from "../timber/measurement-source.server";
import type { ExcelExportType, ExcelWriteContext, RowSource } from "../types";
import type { Writable } from "node:stream";

// lumber_dashboard_excel: the lumber dashboard as it is filtered (the same filter parameters as
// GET /dashboard_filter?lumber_measurements=true): a sheet of storages with their lumber totals
// and a sheet of the lumber measurements with product, plank length, plank count and volume.
// Volumes are stored in m³ and written in the owner's unit and precision.

const keysOf = (selection: Selection) => new Set(selection.customFieldKeys ?? []);

const lumberDashboardSource: RowSource<Selection> = {
  async request(db, ctx, selection) {
    const stored: Selection = { ...selection, customFieldKeys: [...(await lumberCustomFieldKeys(db, ctx))] };
    return { selection: stored, count: await countLumberSelected(db, ctx, stored.filters ?? {}, keysOf(stored)) };
  },
  revive: selectionFromParams,
  async prepare(db, organizationId, selection) {
    const count = await countLumberSelected(db, { organizationId }, selection.filters ?? {}, keysOf(selection));
    return { records: count, expectedRows: count, leftOut: [] };
  },
};

export const lumberDashboardExcel: ExcelExportType<Selection> = {
  reportType: "lumber_dashboard_excel",
  kind: "excel",
  labelKey: "exports:types.lumber_dashboard_excel",
  // measurement_ids is one of the dashboard's filters here.
  selectionKeys: ["measurement_ids"],
  selection: DashboardSelectionSchema,
  source: lumberDashboardSource,
  write: (out, ctx) => writeLumberDashboard(out, ctx),
};

async function writeLumberDashboard(out: Writable, ctx: ExcelWriteContext<Selection>) {
  const { t } = ctx;
  const precision = clampPrecision(ctx.precision);
  const unit = volumeUnitLabel(ctx.volumeUnit);
  const volumeFmt = decimalsFormat(precision);
  const inUnit = (m3: number) =>
    roundHalfUp(ctx.volumeUnit === "m^3" ? m3 : convertVolume(m3, "m^3", ctx.volumeUnit), precision);
  const filters = ctx.selection.filters ?? {};
  const keys = keysOf(ctx.selection);
  const org = { organizationId: ctx.organizationId };
  const wb = createWorkbook(out);

  const storages = new SheetWriter(wb, t("excel.sheets.storages"), [
    { header: t("excel.columns.storage"), kind: "text", width: 28 },
    { header: t("excel.columns.storageState"), kind: "text", width: 16 },
    { header: t("excel.columns.measurements"), kind: "int", width: 14 },
    { header: t("excel.columns.planks"), kind: "int", width: 10 },
    { header: t("excel.columns.volume", { unit }), kind: "number", numFmt: volumeFmt, width: 14 },
  ]);
  for (const s of await lumberStorageTotals(ctx.db, org, filters, keys)) {
    storages.add([
      s.name,
      storageStateName(t, s.storage_state_id),
      Number(s.measurements_count),
      Number(s.planks_count ?? 0),
      inUnit(Number(s.volume ?? 0)),
    ]);
  }
  storages.commit();

  const sheet = new SheetWriter(wb, t("excel.sheets.measurements"), [
    { header: t("excel.columns.measurementId"), kind: "int", width: 12 },
    { header: t("excel.columns.storage"), kind: "text", width: 24 },
    { header: t("excel.columns.takenAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("excel.columns.measurementType"), kind: "text", width: 14 },
    { header: t("excel.columns.lumberProduct"), kind: "text", width: 28 },
    { header: t("excel.columns.plankLength", { unit: "m" }), kind: "number", numFmt: "0.000", width: 14 },
    { header: t("excel.columns.planks"), kind: "int", width: 10 },
    { header: t("excel.columns.volume", { unit }), kind: "number", numFmt: volumeFmt, width: 14 },
    { header: t("excel.columns.comment"), kind: "text", width: 30 },
  ]);
  for await (const m of streamLumberExportRows(ctx.db, org, filters, keys)) {
    sheet.add([
      m.id,
      m.storage_name,
      wallClock(m.taken_at, ctx.timeZone),
      measurementTypeName(t, m.measurement_type_id),
      m.lumber_product_name,
      m.plank_length === null ? null : convertLength(m.plank_length, "mm", "m"),
      m.plank_count,
      inUnit(m.volume),
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
