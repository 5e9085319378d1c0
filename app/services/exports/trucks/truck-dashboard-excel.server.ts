import { clampPrecision, convertVolume, roundHalfUp, volumeUnitLabel } from "~/domain";
import { streamTruckDiameterExportRows, streamTruckExportRows } from "~/models/truck-export.server";
import { truckDashboardStorages } from "~/models/truck.server";
import { decimalsFormat, EXCEL_BATCH, EXCEL_DATE_TIME, wallClock } from "~/services/excel-reports.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import { formulaName, lookupName, measurementTypeName } from "~/utils/lookup-name";
import type { TruckDashboardFilter } from "~/utils/schemas/truck";
import { truckDashboardSource, TruckDashboardSelectionSchema } from "./truck-source.server";
import type { ExcelExportType, ExcelWriteContext } from "../types";
import type { Writable } from "node:stream";

// truck_dashboard_excel: the truck dashboard as it is filtered (plate, the two "only"
// checkboxes): a sheet of the storages with their measurements' count, loads, logs and solid
// volume (the dashboard's table, every storage it lists), a sheet of the truck measurements and
// a sheet of the truck-diameter measurements (the spec names no export of their own; the
// dashboard's "only truck-diameter" box selects them, so its Excel carries them). A sheet the
// "only" box leaves out is written with its header alone.
// Volumes are stored in m³ (app/domain/truck.ts) and written in the owner's unit and precision.

export const truckDashboardExcel: ExcelExportType<TruckDashboardFilter> = {
  reportType: "truck_dashboard_excel",
  kind: "excel",
  labelKey: "exports:types.truck_dashboard_excel",
  selectionKeys: [],
  selection: TruckDashboardSelectionSchema,
  source: truckDashboardSource("measurements"),
  write: (out, ctx) => writeTruckDashboard(out, ctx),
};

/** The owner's volume unit and precision, as the writers of both truck sheets use them. */
export function truckVolumes(ctx: Pick<ExcelWriteContext<unknown>, "precision" | "volumeUnit">) {
  const precision = clampPrecision(ctx.precision);
  return {
    unit: volumeUnitLabel(ctx.volumeUnit),
    numFmt: decimalsFormat(precision),
    inUnit: (m3: number) =>
      roundHalfUp(ctx.volumeUnit === "m^3" ? m3 : convertVolume(m3, "m^3", ctx.volumeUnit), precision),
  };
}

async function writeTruckDashboard(out: Writable, ctx: ExcelWriteContext<TruckDashboardFilter>) {
  const { t } = ctx;
  const v = truckVolumes(ctx);
  const org = { organizationId: ctx.organizationId };
  const wb = createWorkbook(out);

  const storages = new SheetWriter(wb, t("trucks:export.sheets.storages"), [
    { header: t("trucks:export.columns.storage"), kind: "text", width: 28 },
    { header: t("trucks:export.columns.measurements"), kind: "int", width: 14 },
    { header: t("trucks:export.columns.loads"), kind: "int", width: 10 },
    { header: t("trucks:export.columns.logs"), kind: "int", width: 10 },
    { header: t("trucks:export.columns.volume", { unit: v.unit }), kind: "number", numFmt: v.numFmt, width: 16 },
    {
      header: t("trucks:export.columns.diameterVolume", { unit: v.unit }),
      kind: "number",
      numFmt: v.numFmt,
      width: 18,
    },
  ]);
  for (const s of await truckDashboardStorages(ctx.db, org, ctx.selection)) {
    storages.add([
      s.name,
      s.measurements_count,
      s.load_count,
      s.logs_count,
      v.inUnit(s.volume),
      v.inUnit(s.diameter_volume),
    ]);
  }
  storages.commit();

  const sheet = new SheetWriter(wb, t("trucks:export.sheets.measurements"), [
    { header: t("trucks:export.columns.measurementId"), kind: "int", width: 12 },
    { header: t("trucks:export.columns.storage"), kind: "text", width: 24 },
    { header: t("trucks:export.columns.plate"), kind: "text", width: 14 },
    { header: t("trucks:export.columns.shipment"), kind: "text", width: 16 },
    { header: t("trucks:export.columns.takenAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("trucks:export.columns.measuredAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("trucks:export.columns.type"), kind: "text", width: 14 },
    { header: t("trucks:export.columns.loads"), kind: "int", width: 10 },
    {
      header: t("trucks:export.columns.stackedVolume", { unit: v.unit }),
      kind: "number",
      numFmt: v.numFmt,
      width: 16,
    },
    { header: t("trucks:export.columns.volume", { unit: v.unit }), kind: "number", numFmt: v.numFmt, width: 16 },
    { header: t("trucks:export.columns.weight"), kind: "number", numFmt: "0", width: 12 },
    { header: t("trucks:export.columns.weightDensity"), kind: "number", numFmt: "0.000", width: 14 },
  ]);
  for await (const m of streamTruckExportRows(ctx.db, org, ctx.selection)) {
    sheet.add([
      m.id,
      m.storage_name,
      m.license_plate,
      m.shipment_number,
      wallClock(m.taken_at, ctx.timeZone),
      m.measured_at ? wallClock(m.measured_at, ctx.timeZone) : null,
      measurementTypeName(t, m.measurement_type_id),
      m.load_count,
      v.inUnit(m.stacked_volume),
      v.inUnit(m.volume),
      m.weight,
      m.weight_density,
    ]);
    if (sheet.count % EXCEL_BATCH === 0) {
      await sheet.drain();
      await ctx.onProgress(sheet.count / Math.max(1, ctx.expectedRows));
    }
  }
  sheet.commit();

  const diameters = new SheetWriter(wb, t("trucks:export.sheets.diameter"), [
    { header: t("trucks:export.columns.measurementId"), kind: "int", width: 12 },
    { header: t("trucks:export.columns.storage"), kind: "text", width: 24 },
    { header: t("trucks:export.columns.trailerPlate"), kind: "text", width: 14 },
    { header: t("trucks:export.columns.shipment"), kind: "text", width: 16 },
    { header: t("trucks:export.columns.takenAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("trucks:export.columns.measuredAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("trucks:export.columns.type"), kind: "text", width: 14 },
    { header: t("trucks:export.columns.species"), kind: "text", width: 16 },
    { header: t("trucks:export.columns.length"), kind: "number", numFmt: "0.00", width: 12 },
    { header: t("trucks:export.columns.logs"), kind: "int", width: 10 },
    { header: t("trucks:export.columns.formula"), kind: "text", width: 18 },
    { header: t("trucks:export.columns.volume", { unit: v.unit }), kind: "number", numFmt: v.numFmt, width: 16 },
    { header: t("trucks:export.columns.bed"), kind: "text", width: 14 },
    { header: t("trucks:export.columns.detector"), kind: "text", width: 14 },
  ]);
  for await (const d of streamTruckDiameterExportRows(ctx.db, org, ctx.selection)) {
    diameters.add([
      d.id,
      d.storage_name,
      d.trailer_license_plate,
      d.shipment_number,
      wallClock(d.taken_at, ctx.timeZone),
      d.measured_at ? wallClock(d.measured_at, ctx.timeZone) : null,
      measurementTypeName(t, d.measurement_type_id),
      d.wood_type_id === null
        ? null
        : lookupName(t, "wood_types", { id: d.wood_type_id, name: d.wood_type_name, organization_id: d.wood_type_org }),
      d.log_length,
      d.logs_count,
      formulaName(t, d.volume_formula),
      v.inUnit(d.volume),
      d.load_bed_name,
      d.detector,
    ]);
    if (diameters.count % EXCEL_BATCH === 0) {
      await diameters.drain();
      await ctx.onProgress((sheet.count + diameters.count) / Math.max(1, ctx.expectedRows));
    }
  }
  diameters.commit();
  await wb.commit();
  return { rowCount: sheet.count + diameters.count };
}
