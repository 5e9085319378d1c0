import { streamTruckLoadRows } from "~/models/truck-export.server";
import { EXCEL_BATCH, EXCEL_DATE_TIME, wallClock } from "~/services/excel-reports.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import { lookupName } from "~/utils/lookup-name";
import type { TruckDashboardFilter } from "~/utils/schemas/truck";
import { truckVolumes } from "./truck-dashboard-excel.server";
import { truckDashboardSource, TruckDashboardSelectionSchema } from "./truck-source.server";
import type { ExcelExportType, ExcelWriteContext } from "../types";
import type { Writable } from "node:stream";

// palmako_excel: the truck dashboard's alternative export (feature palmako_excel). The spec
// names it and withholds its layout, so it is defined here (docs/decisions/017-trucks.md,
// "Exports"): one sheet "Deliveries" with one row per load of the filtered truck measurements,
// in delivery order (taken, measurement, bed): the delivery's date, measurement id, plate,
// shipment number and storage, then the load's number, bed, species, quality, assortment, its
// four sides and its stacked and solid volume. A receiving mill books each load bed separately.

export const palmakoExcel: ExcelExportType<TruckDashboardFilter> = {
  reportType: "palmako_excel",
  kind: "excel",
  labelKey: "exports:types.palmako_excel",
  feature: "palmako_excel",
  selectionKeys: [],
  selection: TruckDashboardSelectionSchema,
  source: truckDashboardSource("loads"),
  write: (out, ctx) => writePalmako(out, ctx),
};

async function writePalmako(out: Writable, ctx: ExcelWriteContext<TruckDashboardFilter>) {
  const { t } = ctx;
  const v = truckVolumes(ctx);
  const wb = createWorkbook(out);
  const c = (key: string, opts?: Record<string, string>) => t(`trucks:export.columns.${key}`, opts);
  const sheet = new SheetWriter(wb, t("trucks:export.sheets.deliveries"), [
    { header: c("takenAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: c("measurementId"), kind: "int", width: 12 },
    { header: c("plate"), kind: "text", width: 14 },
    { header: c("shipment"), kind: "text", width: 16 },
    { header: c("storage"), kind: "text", width: 24 },
    { header: c("loadNo"), kind: "int", width: 8 },
    { header: c("bed"), kind: "text", width: 14 },
    { header: c("species"), kind: "text", width: 16 },
    { header: c("quality"), kind: "text", width: 14 },
    { header: c("assortment"), kind: "text", width: 18 },
    { header: c("height"), kind: "number", numFmt: "0.00", width: 10 },
    { header: c("width"), kind: "number", numFmt: "0.00", width: 10 },
    { header: c("length"), kind: "number", numFmt: "0.00", width: 12 },
    { header: c("coefficient"), kind: "number", numFmt: "0.00", width: 12 },
    { header: c("stackedVolume", { unit: v.unit }), kind: "number", numFmt: v.numFmt, width: 16 },
    { header: c("volume", { unit: v.unit }), kind: "number", numFmt: v.numFmt, width: 16 },
  ]);
  for await (const l of streamTruckLoadRows(ctx.db, { organizationId: ctx.organizationId }, ctx.selection)) {
    sheet.add([
      wallClock(l.taken_at, ctx.timeZone),
      l.measurement_id,
      l.license_plate,
      l.shipment_number,
      l.storage_name,
      l.load_index + 1,
      l.load_bed_name,
      l.wood_type_id === null
        ? null
        : lookupName(t, "wood_types", { id: l.wood_type_id, name: l.wood_type_name, organization_id: l.wood_type_org }),
      l.wood_quality_id === null
        ? null
        : lookupName(t, "wood_qualities", {
            id: l.wood_quality_id,
            name: l.wood_quality_name,
            organization_id: l.wood_quality_org,
          }),
      l.assortment_name,
      l.height,
      l.load_width,
      l.log_length,
      l.coefficient,
      v.inUnit(l.stacked_volume),
      v.inUnit(l.volume),
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
