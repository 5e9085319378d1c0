import {
  clampPrecision,
  roundHalfUp,
  volumeUnitLabel,
  woodYardSummary,
  woodYardTotals,
  type WoodYardMeasurementLines,
} from "~/domain";
import { timberSummary } from "~/models/timber-summary.server";
import { streamWoodYard, woodYardLookups } from "~/models/wood-yard.server";
import { decimalsFormat, toUserVolume, wallClock } from "~/services/excel-reports.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import { woodYardSource, WoodYardSelectionSchema, type WoodYardSelection } from "./wood-yard-source.server";
import type { ExcelExportType, ExcelWriteContext } from "../types";
import type { Writable } from "node:stream";

// wood_yard_summary_excel (feature wood_yard_summary_excel): one storage per month (taken, in
// the owner's time zone) and assortment: log count, volume and value. Each measurement is
// summarised as its detail screen does (timberSummary), the lines added up by app/domain's
// woodYardSummary; value from the assortments' prices in the organisation's currency. Unassigned
// accepted logs and culled logs are their own lines (no value). A total line ends the sheet.

export const woodYardSummaryExcel: ExcelExportType<WoodYardSelection> = {
  reportType: "wood_yard_summary_excel",
  kind: "excel",
  labelKey: "exports:types.wood_yard_summary_excel",
  feature: "wood_yard_summary_excel",
  selectionKeys: ["storage_id"],
  selection: WoodYardSelectionSchema,
  source: woodYardSource("measurements"),
  write: (out, ctx) => writeWoodYardSummary(out, ctx),
};

/** The summary rows of one storage for a reader (unit, time zone): what the sheet shows, unrounded. */
export async function woodYardSummaryRows(
  ctx: Pick<ExcelWriteContext<WoodYardSelection>, "db" | "organizationId" | "selection" | "volumeUnit" | "timeZone">,
) {
  const org = { organizationId: ctx.organizationId };
  const lookups = await woodYardLookups(ctx.db, org);
  const lines: WoodYardMeasurementLines[] = [];
  for await (const m of streamWoodYard(ctx.db, org, ctx.selection.storage_id)) {
    const s = timberSummary(m, m.logs, lookups);
    const toUnit = (v: number) => toUserVolume(v, m.volume_formula, ctx.volumeUnit, m.coefficient);
    lines.push({
      month: wallClock(m.taken_at, ctx.timeZone).toISOString().slice(0, 7),
      byAssortment: s.byAssortment.map((a) => ({ ...a, volume: toUnit(a.volume) })),
      culled: { count: s.culledCount, volume: toUnit(s.culledVolume) },
    });
  }
  return {
    rows: woodYardSummary(
      lines,
      lookups.assortments.map((a) => a.id),
    ),
    lookups,
  };
}

async function writeWoodYardSummary(out: Writable, ctx: ExcelWriteContext<WoodYardSelection>) {
  const { t } = ctx;
  const precision = clampPrecision(ctx.precision);
  const unit = volumeUnitLabel(ctx.volumeUnit);
  const org = await ctx.db
    .selectFrom("organizations")
    .select("currency")
    .where("id", "=", ctx.organizationId)
    .executeTakeFirstOrThrow();
  const { rows, lookups } = await woodYardSummaryRows(ctx);
  const assortmentName = new Map(lookups.assortments.map((a) => [a.id, a.name]));

  const wb = createWorkbook(out);
  const sheet = new SheetWriter(wb, t("woodYard.summarySheet"), [
    { header: t("woodYard.month"), kind: "text", width: 12 },
    { header: t("excel.columns.assortment"), kind: "text", width: 28 },
    { header: t("excel.columns.logs"), kind: "int", width: 10 },
    { header: t("excel.columns.volume", { unit }), kind: "number", numFmt: decimalsFormat(precision), width: 14 },
    { header: t("woodYard.value", { currency: org.currency }), kind: "number", numFmt: "0.00", width: 14 },
  ]);
  for (const r of rows) {
    sheet.add([
      r.month,
      r.culled
        ? t("woodYard.culled")
        : r.assortmentId === null
          ? t("woodYard.unassigned")
          : (assortmentName.get(Number(r.assortmentId)) ?? ""),
      r.count,
      roundHalfUp(r.volume, precision),
      r.valueCents / 100,
    ]);
  }
  const total = woodYardTotals(rows);
  sheet.add([t("woodYard.total"), null, total.count, roundHalfUp(total.volume, precision), total.valueCents / 100]);
  sheet.commit();
  await wb.commit();
  return { rowCount: sheet.count };
}
