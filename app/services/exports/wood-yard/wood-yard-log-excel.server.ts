import { classifyLog, clampPrecision, roundHalfUp, volumeUnitLabel } from "~/domain";
import { timberSummaryOptions } from "~/models/timber-summary.server";
import { streamWoodYard, woodYardLookups } from "~/models/wood-yard.server";
import { decimalsFormat, EXCEL_BATCH, EXCEL_DATE_TIME, toUserVolume, wallClock } from "~/services/excel-reports.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import { woodYardSource, WoodYardSelectionSchema, type WoodYardSelection } from "./wood-yard-source.server";
import type { ExcelExportType, ExcelWriteContext } from "../types";
import type { Writable } from "node:stream";

// wood_yard_log_excel (feature wood_yard_log_excel): every live log of one storage, one row
// each, with its measurement, dates, species, assortment, cull, diameter, length and volume.
// The assortment and cull are the ones the log counts under on the measurement's screen
// (app/domain classifyLog with the screen's summary options: a cull wins, then the log's own
// assortment, then the assortment whose diameter range holds it). Diameter to 1 decimal (cm),
// volume in the owner's unit at the owner's precision, as log_by_log_excel.

export const woodYardLogExcel: ExcelExportType<WoodYardSelection> = {
  reportType: "wood_yard_log_excel",
  kind: "excel",
  labelKey: "exports:types.wood_yard_log_excel",
  feature: "wood_yard_log_excel",
  selectionKeys: ["storage_id"],
  selection: WoodYardSelectionSchema,
  source: woodYardSource("logs"),
  write: (out, ctx) => writeWoodYardLogs(out, ctx),
};

async function writeWoodYardLogs(out: Writable, ctx: ExcelWriteContext<WoodYardSelection>) {
  const { t } = ctx;
  const org = { organizationId: ctx.organizationId };
  const precision = clampPrecision(ctx.precision);
  const unit = volumeUnitLabel(ctx.volumeUnit);
  const lookups = await woodYardLookups(ctx.db, org, t);
  const storage = await ctx.db
    .selectFrom("storages")
    .select("name")
    .where("id", "=", ctx.selection.storage_id)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
  const species = new Map(lookups.woodTypes.map((w) => [w.id, w.name]));
  const assortmentName = new Map(lookups.assortments.map((a) => [a.id, a.name]));
  const cullReason = new Map(lookups.culls.map((c) => [c.id, c.reason]));

  const wb = createWorkbook(out);
  const sheet = new SheetWriter(wb, t("excel.sheets.logs"), [
    { header: t("excel.columns.storage"), kind: "text", width: 24 },
    { header: t("excel.columns.measurementId"), kind: "int", width: 14 },
    { header: t("excel.columns.takenAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("excel.columns.measuredAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("excel.columns.logNumber"), kind: "int", width: 10 },
    { header: t("excel.columns.woodType"), kind: "text", width: 16 },
    { header: t("excel.columns.assortment"), kind: "text", width: 24 },
    { header: t("excel.columns.cull"), kind: "text", width: 20 },
    { header: t("excel.columns.diameter", { unit: "cm" }), kind: "number", numFmt: "0.0", width: 14 },
    { header: t("excel.columns.length", { unit: "m" }), kind: "number", numFmt: "0.00", width: 12 },
    { header: t("excel.columns.volume", { unit }), kind: "number", numFmt: decimalsFormat(precision), width: 14 },
  ]);
  for await (const m of streamWoodYard(ctx.db, org, ctx.selection.storage_id)) {
    const options = timberSummaryOptions(m, lookups);
    const takenAt = wallClock(m.taken_at, ctx.timeZone);
    const measuredAt = m.measured_at ? wallClock(m.measured_at, ctx.timeZone) : null;
    let n = 0;
    for (const log of m.logs) {
      n++;
      const c = classifyLog({ d: log.d, v: log.v, cullId: log.cull_id, assortmentId: log.assortment_id }, options);
      sheet.add([
        storage?.name ?? "",
        m.id,
        takenAt,
        measuredAt,
        n,
        m.wood_type_id === null ? null : (species.get(m.wood_type_id) ?? null),
        c.assortmentId === null ? null : (assortmentName.get(Number(c.assortmentId)) ?? null),
        c.cullId === null ? null : (cullReason.get(Number(c.cullId)) ?? null),
        roundHalfUp(log.d, 1),
        m.log_length,
        roundHalfUp(toUserVolume(log.v, m.volume_formula, ctx.volumeUnit, m.coefficient), precision),
      ]);
      if (sheet.count % EXCEL_BATCH === 0) {
        await sheet.drain();
        await ctx.onProgress(sheet.count / Math.max(1, ctx.expectedRows));
      }
    }
  }
  sheet.commit();
  await wb.commit();
  return { rowCount: sheet.count };
}
