import { clampPrecision, convertVolume, roundHalfUp, volumeUnitLabel } from "~/domain";
import { getInventory, storageInventories, type InventoryWithFigures } from "~/models/inventory.server";
import { decimalsFormat, EXCEL_DATE_TIME, wallClock } from "~/services/excel-reports.server";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
import type { DB } from "~/utils/db.server";
import { NotFoundError } from "~/utils/errors";
import { InventorySelectionSchema, type InventorySelection } from "~/utils/schemas/inventory";
import type { ExcelExportType, ExcelWriteContext, RowSource } from "../types";
import type { Writable } from "node:stream";

// inventories_excel: one inventory, or every inventory of a storage: a summary sheet (one line
// per inventory) and the per-item sheet, with the figures of the inventories page (the same
// model read and app/domain/inventory.ts), in the owner's volume unit and precision.

async function load(db: DB, organizationId: number, selection: InventorySelection) {
  const ctx = { organizationId };
  try {
    return "inventory_id" in selection
      ? [await getInventory(db, ctx, selection.inventory_id)]
      : await storageInventories(db, ctx, selection.storage_id);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

const inventorySource: RowSource<InventorySelection> = {
  async request(db, ctx, selection) {
    const found = await load(db, ctx.organizationId, selection);
    return found === null ? "not_found" : { selection, count: found.length };
  },
  revive: (params) => InventorySelectionSchema.parse(params),
  async prepare(db, organizationId, selection) {
    const found = (await load(db, organizationId, selection)) ?? [];
    const rows = found.reduce((n, i) => n + 1 + i.items.length, 0);
    return { records: found.length, expectedRows: rows, leftOut: [] };
  },
};

export const inventoriesExcel: ExcelExportType<InventorySelection> = {
  reportType: "inventories_excel",
  kind: "excel",
  labelKey: "exports:types.inventories_excel",
  feature: "inventories",
  selectionKeys: ["inventory_id", "storage_id"],
  selection: InventorySelectionSchema,
  nameSuffix: (s) => ("inventory_id" in s ? `#${s.inventory_id}` : undefined),
  source: inventorySource,
  write: (out, ctx) => writeInventories(out, ctx),
};

async function writeInventories(out: Writable, ctx: ExcelWriteContext<InventorySelection>) {
  const { t } = ctx;
  const inventories: InventoryWithFigures[] = (await load(ctx.db, ctx.organizationId, ctx.selection)) ?? [];
  const precision = clampPrecision(ctx.precision);
  const unit = volumeUnitLabel(ctx.volumeUnit);
  const numFmt = decimalsFormat(precision);
  const vol = (m3: number) => roundHalfUp(convertVolume(m3, "m^3", ctx.volumeUnit), precision);
  const volumeColumn = (key: string) =>
    ({ header: t(`inventories:excel.${key}`, { unit }), kind: "number", numFmt, width: 16 }) as const;
  const wb = createWorkbook(out);

  const summary = new SheetWriter(wb, t("inventories:excel.summarySheet"), [
    { header: t("inventories:excel.inventory"), kind: "int", width: 10 },
    { header: t("inventories:excel.storage"), kind: "text", width: 26 },
    { header: t("inventories:excel.creator"), kind: "text", width: 24 },
    { header: t("inventories:excel.createdAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("inventories:excel.confirmedAt"), kind: "date", numFmt: EXCEL_DATE_TIME, width: 18 },
    { header: t("inventories:excel.measurements"), kind: "int", width: 14 },
    volumeColumn("opening"),
    volumeColumn("incoming"),
    volumeColumn("outgoing"),
    volumeColumn("calculated"),
    volumeColumn("real"),
    volumeColumn("inventoried"),
    volumeColumn("diff"),
  ]);
  for (const i of inventories) {
    const s = i.summary;
    summary.add([
      i.id,
      i.storage_name,
      i.creator_name,
      wallClock(i.created_at, ctx.timeZone),
      i.confirmed_at ? wallClock(i.confirmed_at, ctx.timeZone) : null,
      s.measurements_count,
      vol(s.opening_volume),
      vol(s.incoming_volume),
      vol(s.outgoing_volume),
      vol(s.calculated_volume),
      vol(s.real_total),
      vol(s.inventoried_volume),
      vol(s.diff_volume),
    ]);
  }
  summary.commit();

  const items = new SheetWriter(wb, t("inventories:excel.itemsSheet"), [
    { header: t("inventories:excel.inventory"), kind: "int", width: 10 },
    { header: t("inventories:excel.storage"), kind: "text", width: 26 },
    { header: t("inventories:excel.name"), kind: "text", width: 30 },
    volumeColumn("itemInventory"),
    volumeColumn("itemCalculated"),
    volumeColumn("diff"),
  ]);
  for (const i of inventories) {
    for (const item of i.items) {
      items.add([
        i.id,
        i.storage_name,
        item.name ?? t("inventories:items.unsorted"),
        vol(item.inventory),
        vol(item.calculated),
        vol(item.diff),
      ]);
    }
  }
  items.commit();
  await wb.commit();
  await ctx.onProgress(1);
  return { rowCount: summary.count + items.count };
}
