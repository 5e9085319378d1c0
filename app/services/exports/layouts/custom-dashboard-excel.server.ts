import { clampPrecision, roundHalfUp, volumeUnitLabel, type VolumeUnit } from "~/domain";
import { getExportLayout } from "~/models/export-layout.server";
import { streamDashboardRows, type Selection } from "~/models/export-rows.server";
import { decimalsFormat, EXCEL_BATCH, EXCEL_DATE_TIME, toUserVolume, wallClock } from "~/services/excel-reports.server";
import { createWorkbook } from "~/services/xlsx-writer.server";
import { formulaName, lookupName, measurementTypeName } from "~/utils/lookup-name";
import { layoutSheet, type Catalogue } from "./layout-writer.server";
import { DashboardSelectionSchema, timberMeasurementSource } from "../timber/measurement-source.server";
import type { ExcelExportType, ExcelWriteContext } from "../types";
import type { TFunction } from "i18next";
import type { Writable } from "node:stream";

// custom_dashboard_excel: dashboard_excel's measurement sheet (same rows, same cells, same
// units) in the organisation's own layout (target "dashboard"), behind custom_export_layouts.

type Row = typeof streamDashboardRows extends (...args: never[]) => AsyncIterable<infer R> ? R : never;
type Cells = { t: TFunction; timeZone: string; volumeUnit: VolumeUnit; precision: number; unit: string };

export const DASHBOARD_CATALOGUE: Catalogue<Row, Cells> = [
  { key: "measurementId", header: (t) => t("excel.columns.measurementId"), kind: "int", width: 12, cell: (m) => m.id },
  { key: "storage", header: (t) => t("excel.columns.storage"), kind: "text", width: 24, cell: (m) => m.storage_name },
  {
    key: "takenAt",
    header: (t) => t("excel.columns.takenAt"),
    kind: "date",
    numFmt: () => EXCEL_DATE_TIME,
    width: 18,
    cell: (m, c) => wallClock(m.taken_at, c.timeZone),
  },
  {
    key: "measuredAt",
    header: (t) => t("excel.columns.measuredAt"),
    kind: "date",
    numFmt: () => EXCEL_DATE_TIME,
    width: 18,
    cell: (m, c) => (m.measured_at ? wallClock(m.measured_at, c.timeZone) : null),
  },
  {
    key: "measurementType",
    header: (t) => t("excel.columns.measurementType"),
    kind: "text",
    width: 14,
    cell: (m, c) => measurementTypeName(c.t, m.measurement_type_id),
  },
  {
    key: "woodType",
    header: (t) => t("excel.columns.woodType"),
    kind: "text",
    width: 16,
    cell: (m, c) =>
      m.wood_type_id === null
        ? null
        : lookupName(c.t, "wood_types", {
            id: m.wood_type_id,
            name: m.wood_type_name,
            organization_id: m.wood_type_org,
          }),
  },
  {
    key: "woodQuality",
    header: (t) => t("excel.columns.woodQuality"),
    kind: "text",
    width: 12,
    cell: (m, c) =>
      m.wood_quality_id === null
        ? null
        : lookupName(c.t, "wood_qualities", {
            id: m.wood_quality_id,
            name: m.wood_quality_name,
            organization_id: m.wood_quality_org,
          }),
  },
  {
    key: "assortment",
    header: (t) => t("excel.columns.assortment"),
    kind: "text",
    width: 24,
    cell: (m) => m.assortment_name,
  },
  {
    key: "length",
    header: (t) => t("excel.columns.length", { unit: "m" }),
    kind: "number",
    numFmt: () => "0.00",
    width: 12,
    cell: (m) => m.log_length,
  },
  { key: "logs", header: (t) => t("excel.columns.logs"), kind: "int", width: 10, cell: (m) => m.logs_count },
  {
    key: "volume",
    header: (t, c) => t("excel.columns.volume", { unit: c.unit }),
    kind: "number",
    numFmt: (c) => decimalsFormat(c.precision),
    width: 14,
    cell: (m, c) => roundHalfUp(toUserVolume(m.volume, m.volume_formula, c.volumeUnit, m.coefficient), c.precision),
  },
  {
    key: "formula",
    header: (t) => t("excel.columns.formula"),
    kind: "text",
    width: 16,
    cell: (m, c) => formulaName(c.t, m.volume_formula),
  },
  { key: "comment", header: (t) => t("excel.columns.comment"), kind: "text", width: 30, cell: (m) => m.comment },
];

export const customDashboardExcel: ExcelExportType<Selection> = {
  reportType: "custom_dashboard_excel",
  kind: "excel",
  labelKey: "exports:types.custom_dashboard_excel",
  feature: "custom_export_layouts",
  selectionKeys: ["measurement_ids"],
  selection: DashboardSelectionSchema,
  source: timberMeasurementSource({ rows: "measurements" }),
  write: (out, ctx) => writeCustomDashboard(out, ctx),
};

async function writeCustomDashboard(out: Writable, ctx: ExcelWriteContext<Selection>) {
  const { t } = ctx;
  const cells: Cells = {
    t,
    timeZone: ctx.timeZone,
    volumeUnit: ctx.volumeUnit,
    precision: clampPrecision(ctx.precision),
    unit: volumeUnitLabel(ctx.volumeUnit),
  };
  const layout = await getExportLayout(ctx.db, ctx, "dashboard");
  const wb = createWorkbook(out);
  const { sheet, add } = layoutSheet(wb, t("excel.sheets.measurements"), t, DASHBOARD_CATALOGUE, layout, cells);
  for await (const m of streamDashboardRows(ctx.db, ctx, ctx.selection)) {
    add(m);
    if (sheet.count % EXCEL_BATCH === 0) {
      await sheet.drain();
      await ctx.onProgress(sheet.count / Math.max(1, ctx.expectedRows));
    }
  }
  sheet.commit();
  await wb.commit();
  return { rowCount: sheet.count };
}
